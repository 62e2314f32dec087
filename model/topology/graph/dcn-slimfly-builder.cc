// Slim Fly (MMS graph) switch graph (spritz spec 1.2; Besta & Hoefler, SC'14, 3.1).
#include "dcn-topo-builders.h"

#include <algorithm>

namespace dcn
{

int
SlimFlyDelta(uint32_t q)
{
    switch (q % 4)
    {
    case 1:
        return 1;
    case 3:
        return -1;
    default:
        return 0;
    }
}

void
SlimFlyGeneratorSets(const GaloisField& f, std::vector<uint32_t>* x, std::vector<uint32_t>* xp)
{
    const uint32_t q = f.Q();
    const uint32_t xi = f.Primitive();
    const int delta = SlimFlyDelta(q);
    x->clear();
    xp->clear();
    auto addPowers = [&f, xi](std::vector<uint32_t>* v, uint32_t from, uint32_t to) {
        for (uint32_t e = from; e <= to; e += 2)
        {
            v->push_back(f.Pow(xi, e));
        }
    };
    if (delta == 1)
    {
        addPowers(x, 0, q - 3);
        addPowers(xp, 1, q - 2);
    }
    else if (delta == -1)
    {
        const uint32_t w = (q + 1) / 4;
        addPowers(x, 0, 2 * w - 2);
        addPowers(x, 2 * w - 1, 4 * w - 3);
        addPowers(xp, 1, 2 * w - 1);
        addPowers(xp, 2 * w, 4 * w - 2);
    }
    std::sort(x->begin(), x->end());
    std::sort(xp->begin(), xp->end());
}

GraphResult
BuildSlimFly(const SlimFlyParams& prm, const std::string& name)
{
    GraphResult res;
    GaloisField f;
    std::string err = GaloisField::Make(prm.q, &f);
    if (!err.empty())
    {
        res.error = "slimfly: q=" + std::to_string(prm.q) +
                    " is not a supported prime power (allowed: an odd prime or the square of "
                    "one up to " +
                    std::to_string(GaloisField::MAX_Q) + ", e.g. 5, 7, 9, 11, 13)";
        return res;
    }
    const uint32_t q = prm.q;
    const int delta = SlimFlyDelta(q);
    const uint32_t kNet = static_cast<uint32_t>((3 * static_cast<int>(q) - delta) / 2);
    const uint32_t p = prm.p == 0 ? (kNet + 1) / 2 : prm.p;
    if (!(prm.rateBps > 0) || prm.hostDelayNs < 0 || prm.localDelayNs < 0 ||
        prm.globalDelayNs < 0 || prm.switchLatencyNs < 0)
    {
        res.error = "slimfly: rate must be > 0 and delays >= 0";
        return res;
    }
    {
        // sizes from the parameters, before anything is allocated: 2q^2 switches of
        // (q-delta)/2 local and q global links each
        const uint64_t q2 = uint64_t(q) * q;
        const std::string size =
            CheckTopologySize(2 * q2 * p, q2 * uint64_t(int64_t(q) - delta) / 2 + q2 * q);
        if (!size.empty())
        {
            res.error = "slimfly: q=" + std::to_string(q) + ", p=" + std::to_string(p) + " " + size;
            return res;
        }
    }
    std::vector<uint32_t> X;
    std::vector<uint32_t> Xp;
    SlimFlyGeneratorSets(f, &X, &Xp);
    SwitchGraph& gr = res.graph;
    gr.name = name;
    gr.fam = {"slimfly", p, 0, 0, 0, q};
    gr.switchLatencyNs = prm.switchLatencyNs;
    // (0,x,y) -> x*q + y; (1,m,c) -> q^2 + m*q + c; group = s*q + x (resp. m).
    for (uint32_t s = 0; s < 2; ++s)
    {
        for (uint32_t x = 0; x < q; ++x)
        {
            for (uint32_t y = 0; y < q; ++y)
            {
                gr.AddSwitch(
                    {"sf" + std::to_string(s) + "." + std::to_string(x) + "." + std::to_string(y),
                     s * q + x,
                     SwitchRole::ROUTER,
                     p,
                     prm.rateBps,
                     prm.hostDelayNs});
            }
        }
    }
    auto id = [q](uint32_t s, uint32_t x, uint32_t y) { return s * q * q + x * q + y; };
    // Local links: (0,x,y)-(0,x,y') iff y-y' in X; (1,m,c)-(1,m,c') iff c-c' in X'.
    for (uint32_t s = 0; s < 2; ++s)
    {
        const auto& set = s == 0 ? X : Xp;
        for (uint32_t x = 0; x < q; ++x)
        {
            for (uint32_t y = 0; y < q; ++y)
            {
                for (uint32_t y2 = y + 1; y2 < q; ++y2)
                {
                    if (std::binary_search(set.begin(), set.end(), f.Sub(y, y2)))
                    {
                        gr.AddLink(id(s, x, y),
                                   id(s, x, y2),
                                   LinkKind::LOCAL,
                                   prm.rateBps,
                                   prm.localDelayNs);
                    }
                }
            }
        }
    }
    // Global links: (0,x,y)-(1,m,c) iff y = m*x + c.
    for (uint32_t x = 0; x < q; ++x)
    {
        for (uint32_t y = 0; y < q; ++y)
        {
            for (uint32_t m = 0; m < q; ++m)
            {
                const uint32_t c = f.Sub(y, f.Mul(m, x));
                gr.AddLink(id(0, x, y),
                           id(1, m, c),
                           LinkKind::GLOBAL,
                           prm.rateBps,
                           prm.globalDelayNs);
            }
        }
    }
    gr.Finalize();
    res.error = gr.Check();
    return res;
}

} // namespace dcn
