#include "dcn-galois-field.h"

namespace dcn
{

namespace
{
bool
IsPrime(uint32_t n)
{
    if (n < 2)
    {
        return false;
    }
    for (uint32_t d = 2; d * d <= n; ++d)
    {
        if (n % d == 0)
        {
            return false;
        }
    }
    return true;
}

/** p if q == p or q == p^2 for an odd prime p, else 0. */
uint32_t
OddPrimeBase(uint32_t q)
{
    if (q % 2 == 0)
    {
        return 0;
    }
    if (IsPrime(q))
    {
        return q;
    }
    for (uint32_t p = 3; p * p <= q; p += 2)
    {
        if (p * p == q && IsPrime(p))
        {
            return p;
        }
    }
    return 0;
}
} // namespace

bool
GaloisField::Supported(uint32_t q)
{
    return q >= 3 && q <= MAX_Q && OddPrimeBase(q) != 0;
}

std::string
GaloisField::Make(uint32_t q, GaloisField* out)
{
    if (!Supported(q))
    {
        return "GF(q): q=" + std::to_string(q) +
               " is not a supported prime power (allowed: an odd prime or the square of one, 3..." +
               std::to_string(MAX_Q) + ", e.g. 5, 7, 9, 11, 13)";
    }
    GaloisField f;
    f.m_q = q;
    f.m_p = OddPrimeBase(q);
    const uint32_t p = f.m_p;
    const bool ext = (p != q);
    // Smallest quadratic non-residue n mod p: i^2 = n.
    uint32_t n = 0;
    if (ext)
    {
        for (uint32_t c = 2; c < p && n == 0; ++c)
        {
            bool square = false;
            for (uint32_t x = 1; x < p; ++x)
            {
                square = square || (x * x) % p == c;
            }
            n = square ? 0 : c;
        }
    }
    f.m_add.resize(q * q);
    f.m_mul.resize(q * q);
    f.m_neg.resize(q);
    f.m_inv.assign(q, 0);
    for (uint32_t a = 0; a < q; ++a)
    {
        const uint32_t a0 = a % p;
        const uint32_t a1 = a / p;
        f.m_neg[a] = (p - a0) % p + p * ((p - a1) % p);
        for (uint32_t b = 0; b < q; ++b)
        {
            const uint32_t b0 = b % p;
            const uint32_t b1 = b / p;
            f.m_add[a * q + b] = (a0 + b0) % p + p * ((a1 + b1) % p);
            const uint32_t c0 = (a0 * b0 + n * a1 * b1) % p;
            const uint32_t c1 = (a0 * b1 + a1 * b0) % p;
            f.m_mul[a * q + b] = c0 + p * c1;
        }
    }
    for (uint32_t a = 1; a < q; ++a)
    {
        for (uint32_t b = 1; b < q; ++b)
        {
            if (f.Mul(a, b) == 1)
            {
                f.m_inv[a] = b;
            }
        }
    }
    for (uint32_t a = 2; a < q && f.m_xi == 0; ++a)
    {
        if (f.OrderOf(a) == q - 1)
        {
            f.m_xi = a;
        }
    }
    *out = std::move(f);
    return "";
}

uint32_t
GaloisField::Pow(uint32_t a, uint32_t k) const
{
    uint32_t r = 1;
    for (uint32_t i = 0; i < k; ++i)
    {
        r = Mul(r, a);
    }
    return r;
}

uint32_t
GaloisField::OrderOf(uint32_t a) const
{
    uint32_t x = a;
    for (uint32_t k = 1; k < m_q; ++k)
    {
        if (x == 1)
        {
            return k;
        }
        x = Mul(x, a);
    }
    return 0; // a == 0 (or not a field element)
}

std::string
GaloisField::Name(uint32_t a) const
{
    const uint32_t c0 = a % m_p;
    const uint32_t c1 = a / m_p;
    if (c1 == 0)
    {
        return std::to_string(c0);
    }
    std::string im = (c1 == 1 ? "" : std::to_string(c1)) + "i";
    return c0 == 0 ? im : std::to_string(c0) + "+" + im;
}

} // namespace dcn
