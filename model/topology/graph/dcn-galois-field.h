/*
 * Finite fields GF(q) for the Slim Fly MMS construction (spritz spec 1.2), q an odd
 * prime p or the square p^2 of one (GF(p)[i]/(i^2 - n), n the smallest quadratic
 * non-residue mod p; for q = 9 that is GF(3)[i]/(i^2 + 1), as the spec demands).
 * Elements are encoded as c0 + p*c1 (c0 + c1*i); 0 and 1 are the field's 0 and 1.
 * Arithmetic goes through q x q tables (q <= MAX_Q), so it is exact and O(1).
 */
#ifndef DCN_GALOIS_FIELD_H
#define DCN_GALOIS_FIELD_H

#include <cstdint>
#include <string>
#include <vector>

namespace dcn
{

class GaloisField
{
  public:
    static constexpr uint32_t MAX_Q = 128;

    /** Build GF(q); \return "" or a one-line error naming q and what is supported. */
    static std::string Make(uint32_t q, GaloisField* out);
    /** True if q is an odd prime or the square of one, q <= MAX_Q. */
    static bool Supported(uint32_t q);

    uint32_t Q() const
    {
        return m_q;
    }

    uint32_t Characteristic() const
    {
        return m_p;
    }

    uint32_t Add(uint32_t a, uint32_t b) const
    {
        return m_add[a * m_q + b];
    }

    uint32_t Mul(uint32_t a, uint32_t b) const
    {
        return m_mul[a * m_q + b];
    }

    uint32_t Neg(uint32_t a) const
    {
        return m_neg[a];
    }

    uint32_t Sub(uint32_t a, uint32_t b) const
    {
        return Add(a, Neg(b));
    }

    /** Multiplicative inverse (a != 0). */
    uint32_t Inv(uint32_t a) const
    {
        return m_inv[a];
    }

    uint32_t Pow(uint32_t a, uint32_t k) const;
    /** Multiplicative order of a != 0. */
    uint32_t OrderOf(uint32_t a) const;

    /** The primitive element of smallest encoding. */
    uint32_t Primitive() const
    {
        return m_xi;
    }

    /** Human-readable element, e.g. "1+2i". */
    std::string Name(uint32_t a) const;

  private:
    uint32_t m_q{0};
    uint32_t m_p{0};
    uint32_t m_xi{0};
    std::vector<uint32_t> m_add, m_mul, m_neg, m_inv;
};

} // namespace dcn

#endif // DCN_GALOIS_FIELD_H
