/*
 * Standalone test runner for dcn-lb's ns-3 TestSuites (in-tree builds use
 * ns-3's own test-runner / test.py instead; this file is excluded there).
 *
 * Accepts ns-3's test-runner options (--list, --suite=NAME, --verbose, ...).
 * Output is echoed unchanged; at the end a line counts passed and failed suites.
 */
#include "ns3/test.h"

#include <iostream>
#include <sstream>
#include <streambuf>
#include <string>

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

int
main(int argc, char** argv)
{
    bool listing = false;
    for (int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        if (a == "--list" || a == "--help" || a.rfind("--print", 0) == 0)
        {
            listing = true;
        }
    }
    std::streambuf* orig = std::cout.rdbuf();
    CountingBuf counter(orig);
    std::cout.rdbuf(&counter);
    int rc = ns3::TestRunner::Run(argc, argv);
    std::cout.flush();
    std::cout.rdbuf(orig);
    if (!listing)
    {
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
    }
    return rc;
}
