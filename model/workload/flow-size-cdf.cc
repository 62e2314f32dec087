#include "flow-size-cdf.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

#ifndef DCNLB_DATA_DIR
#define DCNLB_DATA_DIR "data"
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcnFlowSizeCdf");

std::string
FlowSizeCdf::Validate(const std::vector<Point>& points)
{
    std::ostringstream err;
    if (points.size() < 2)
    {
        err << "needs at least two points, found " << points.size();
        return err.str();
    }
    for (size_t i = 0; i < points.size(); ++i)
    {
        const Point& p = points[i];
        if (!std::isfinite(p.bytes) || p.bytes < 0)
        {
            err << "point " << i + 1 << ": size " << p.bytes << " must be >= 0";
            return err.str();
        }
        if (!std::isfinite(p.percent) || p.percent < 0 || p.percent > 100)
        {
            err << "point " << i + 1 << ": cumulative percent " << p.percent
                << " must be in [0, 100]";
            return err.str();
        }
        if (i > 0 && p.bytes < points[i - 1].bytes)
        {
            err << "point " << i + 1 << ": size " << p.bytes
                << " is smaller than the previous size " << points[i - 1].bytes
                << " (sizes must be non-decreasing)";
            return err.str();
        }
        if (i > 0 && p.percent < points[i - 1].percent)
        {
            err << "point " << i + 1 << ": cumulative percent " << p.percent
                << " is smaller than the previous " << points[i - 1].percent
                << " (the CDF must be monotone)";
            return err.str();
        }
    }
    if (points.back().percent != 100.0)
    {
        err << "point " << points.size() << ": last cumulative percent is " << points.back().percent
            << ", the CDF must end at 100";
        return err.str();
    }
    if (points.back().bytes <= 0)
    {
        err << "point " << points.size() << ": largest size must be > 0";
        return err.str();
    }
    // the mean (as Mean()): Poisson arrivals are spaced by it, 0 would never advance time
    double mean = points.front().bytes * points.front().percent / 100.0;
    for (size_t i = 1; i < points.size(); ++i)
    {
        mean += (points[i].percent - points[i - 1].percent) / 100.0 *
                (points[i].bytes + points[i - 1].bytes) / 2.0;
    }
    if (mean < 1.0)
    {
        err << "point " << points.size() << ": the mean flow size is " << mean
            << " B (the probability sits at size 0); allowed: a mean of at least 1 B";
        return err.str();
    }
    return "";
}

std::string
FlowSizeCdf::Parse(const std::string& text, const std::string& fileName, FlowSizeCdf* out)
{
    std::vector<Point> pts;
    std::vector<uint32_t> lineOf; // file line number of each point
    std::istringstream in(text);
    std::string line;
    uint32_t lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#')
        {
            continue;
        }
        std::istringstream ls(line);
        Point p{};
        std::string extra;
        if (!(ls >> p.bytes >> p.percent))
        {
            std::ostringstream e;
            e << fileName << ":" << lineNo << ": expected 'size_bytes cumulative_percent', got '"
              << line << "'";
            return e.str();
        }
        if (ls >> extra && extra[0] != '#')
        {
            std::ostringstream e;
            e << fileName << ":" << lineNo << ": unexpected text '" << extra
              << "' after 'size_bytes cumulative_percent'";
            return e.str();
        }
        pts.push_back(p);
        lineOf.push_back(lineNo);
    }
    std::string err = Validate(pts);
    if (!err.empty())
    {
        // Map "point k" back to the file line.
        uint32_t where = lineNo;
        size_t pos = err.find("point ");
        if (pos == 0)
        {
            size_t k = std::stoul(err.substr(6));
            if (k >= 1 && k <= lineOf.size())
            {
                where = lineOf[k - 1];
            }
        }
        std::ostringstream e;
        e << fileName << ":" << where << ": " << err;
        return e.str();
    }
    if (out)
    {
        out->m_points = pts;
        out->m_source = fileName;
    }
    return "";
}

static bool
FileExists(const std::string& path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string
FlowSizeCdf::ResolvePath(const std::string& nameOrPath)
{
    if (nameOrPath.empty())
    {
        return "";
    }
    if (FileExists(nameOrPath))
    {
        return nameOrPath;
    }
    std::string p = std::string(DCNLB_DATA_DIR) + "/workloads/" + nameOrPath + ".txt";
    if (FileExists(p))
    {
        return p;
    }
    return "";
}

std::string
FlowSizeCdf::DataDir()
{
    return DCNLB_DATA_DIR;
}

std::vector<std::string>
FlowSizeCdf::BuiltinNames()
{
    std::vector<std::string> names;
    std::string dir = std::string(DCNLB_DATA_DIR) + "/workloads";
    DIR* d = opendir(dir.c_str());
    if (d)
    {
        while (dirent* e = readdir(d))
        {
            std::string n = e->d_name;
            if (n.size() > 4 && n.substr(n.size() - 4) == ".txt")
            {
                names.push_back(n.substr(0, n.size() - 4));
            }
        }
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string
FlowSizeCdf::TryLoad(const std::string& nameOrPath, FlowSizeCdf* out)
{
    NS_LOG_FUNCTION(nameOrPath);
    std::string path = ResolvePath(nameOrPath);
    if (path.empty())
    {
        std::ostringstream e;
        e << "CDF '" << nameOrPath
          << "' is neither a readable file nor a built-in name; built-in: ";
        auto names = BuiltinNames();
        for (size_t i = 0; i < names.size(); ++i)
        {
            e << (i ? ", " : "") << names[i];
        }
        return e.str();
    }
    std::ifstream f(path);
    if (!f)
    {
        return "cannot open CDF file '" + path + "'";
    }
    std::stringstream ss;
    ss << f.rdbuf();
    return Parse(ss.str(), path, out);
}

FlowSizeCdf
FlowSizeCdf::Load(const std::string& nameOrPath)
{
    FlowSizeCdf cdf;
    std::string err = TryLoad(nameOrPath, &cdf);
    NS_ABORT_MSG_IF(!err.empty(), "Bad flow-size CDF: " << err);
    return cdf;
}

double
FlowSizeCdf::Quantile(double u) const
{
    NS_ASSERT(m_points.size() >= 2);
    if (u <= m_points.front().percent)
    {
        return m_points.front().bytes;
    }
    if (u >= 100.0)
    {
        return m_points.back().bytes;
    }
    // first point with percent >= u
    auto it = std::lower_bound(m_points.begin(), m_points.end(), u, [](const Point& p, double v) {
        return p.percent < v;
    });
    if (it == m_points.begin())
    {
        return it->bytes;
    }
    const Point& hi = *it;
    const Point& lo = *(it - 1);
    if (hi.percent == lo.percent)
    {
        return hi.bytes;
    }
    return lo.bytes + (hi.bytes - lo.bytes) * (u - lo.percent) / (hi.percent - lo.percent);
}

uint64_t
FlowSizeCdf::Sample(Ptr<UniformRandomVariable> u) const
{
    double s = Quantile(u->GetValue(0.0, 100.0));
    uint64_t b = static_cast<uint64_t>(std::llround(s));
    return std::max<uint64_t>(b, 1);
}

double
FlowSizeCdf::Mean() const
{
    // Probability mass below the first point sits at the first size.
    double mean = m_points.front().bytes * m_points.front().percent / 100.0;
    for (size_t i = 1; i < m_points.size(); ++i)
    {
        double w = (m_points[i].percent - m_points[i - 1].percent) / 100.0;
        mean += w * (m_points[i].bytes + m_points[i - 1].bytes) / 2.0;
    }
    return mean;
}

} // namespace ns3
