/*
 * Standalone test runner for dcn-lb's ns-3 TestSuites (in-tree builds use
 * ns-3's own test-runner / test.py instead; this file is excluded there).
 *
 * Accepts ns-3's test-runner options (--list, --suite=NAME, --verbose, ...).
 * Output is echoed unchanged; at the end a line counts passed and failed suites.
 * Without --suite, every registered suite is run, one ns-3 TestRunner call each.
 */
#include "ns3/test.h"

#include <iostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

namespace
{

/** Echoes everything to the real stdout and counts PASS/FAIL result lines. */
class CountingBuf : public std::streambuf
{
  public:
    explicit CountingBuf(std::streambuf* out)
        : m_out(out)
    {
    }

    int passed{0};
    int failed{0};
    int skipped{0};

  protected:
    int overflow(int c) override
    {
        if (c == EOF)
        {
            return 0;
        }
        if (c == '\n')
        {
            Classify();
            m_line.clear();
        }
        else
        {
            m_line.push_back(static_cast<char>(c));
        }
        return m_out->sputc(static_cast<char>(c));
    }

    int sync() override
    {
        return m_out->pubsync();
    }

  private:
    void Classify()
    {
        // ns-3 prints one "PASS|FAIL|SKIP <suite> <time>" line per suite (unindented).
        if (m_line.rfind("PASS ", 0) == 0)
        {
            ++passed;
        }
        else if (m_line.rfind("FAIL ", 0) == 0 || m_line.rfind("CRASH ", 0) == 0)
        {
            ++failed;
        }
        else if (m_line.rfind("SKIP ", 0) == 0)
        {
            ++skipped;
        }
    }

    std::streambuf* m_out;
    std::string m_line;
};

} // namespace

/** Runs ns-3's TestRunner with these arguments (argv[0] first). */
int
RunNs3(std::vector<std::string> args)
{
    std::vector<char*> v;
    for (auto& a : args)
    {
        v.push_back(a.data());
    }
    v.push_back(nullptr);
    return ns3::TestRunner::Run(static_cast<int>(args.size()), v.data());
}

/** Names of all registered suites (from "--list"; the name is the last word of a line). */
std::vector<std::string>
SuiteNames(const std::string& prog)
{
    std::ostringstream captured;
    std::streambuf* orig = std::cout.rdbuf(captured.rdbuf());
    RunNs3({prog, "--list"});
    std::cout.rdbuf(orig);
    std::vector<std::string> names;
    std::istringstream in(captured.str());
    std::string line;
    while (std::getline(in, line))
    {
        std::istringstream words(line);
        std::string w;
        std::string last;
        while (words >> w)
        {
            last = w;
        }
        if (!last.empty())
        {
            names.push_back(last);
        }
    }
    return names;
}

int
main(int argc, char** argv)
{
    bool listing = false;
    bool oneSuite = false;
    std::vector<std::string> args(argv, argv + argc);
    for (int i = 1; i < argc; ++i)
    {
        const std::string& a = args[i];
        if (a == "--list" || a == "--help" || a.rfind("--print", 0) == 0)
        {
            listing = true;
        }
        if (a.rfind("--suite=", 0) == 0 || a.rfind("--example=", 0) == 0)
        {
            oneSuite = true;
        }
    }
    if (listing)
    {
        return RunNs3(args);
    }
    std::streambuf* orig = std::cout.rdbuf();
    CountingBuf counter(orig);
    int rc = 0;
    if (oneSuite)
    {
        std::cout.rdbuf(&counter);
        rc = RunNs3(args);
    }
    else
    {
        // Newer ns-3 (3.43) refuses to run several suites in one call: run them one
        // at a time (same results on 3.37), forwarding the other options.
        const std::vector<std::string> names = SuiteNames(args[0]);
        std::cout.rdbuf(&counter);
        for (const auto& name : names)
        {
            std::vector<std::string> one = args;
            one.push_back("--suite=" + name);
            if (RunNs3(one) != 0)
            {
                rc = 1;
            }
        }
    }
    std::cout.flush();
    std::cout.rdbuf(orig);
    std::cout << "dcn-lb test suites: " << counter.passed << " passed, " << counter.failed
              << " failed, " << counter.skipped << " skipped" << std::endl;
    if (counter.failed > 0 && rc == 0)
    {
        rc = 1;
    }
    if (counter.passed + counter.failed + counter.skipped == 0 && rc == 0)
    {
        // e.g. --suite=<a name that does not exist>: nothing ran, which is not a pass.
        std::cerr << "dcn-lb-test-runner: no test suite ran (see --list for the names)"
                  << std::endl;
        rc = 1;
    }
    return rc;
}
