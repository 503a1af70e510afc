#include "flow-list.h"

#include "ns3/spec-string.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

bool
ToUint(const std::string& s, uint64_t& v)
{
    return s.size() <= 19 && ParseUint(s, v);
}

} // namespace

std::vector<FlowSpec>
FlowList::Parse(const std::string& text, const std::string& file)
{
    CheckTextFile(text, file, "flow");
    std::istringstream in(text);
    std::string line;
    uint32_t lineNo = 0;
    auto fail = [&](const std::string& what) -> void {
        throw std::invalid_argument(file + ":" + std::to_string(lineNo) + ": " + what);
    };
    // Blank lines are skipped: HPCC reads with >>, which skips whitespace.
    auto nextLine = [&]() -> bool {
        while (std::getline(in, line))
        {
            ++lineNo;
            if (line.find_first_not_of(" \t\r") != std::string::npos)
            {
                return true;
            }
        }
        return false;
    };
    if (!nextLine())
    {
        ++lineNo;
        fail("empty flow file; allowed: first line the number of flows, then one flow a line "
             "'src dst priority dport bytes start_s'");
    }
    uint64_t count = 0;
    {
        std::istringstream ls(line);
        std::string tok, extra;
        if (!(ls >> tok) || !ToUint(tok, count) || (ls >> extra))
        {
            fail("'" + line + "' is not a flow count; allowed: one non-negative integer");
        }
    }
    std::vector<FlowSpec> flows;
    // The count is the file's claim, not a size to trust: each flow line takes at least 12
    // bytes ("0 1 0 0 1 0\n"), so the text bounds how many can follow (a count line of
    // 2222222222 reserved 53 GB before this bound; found by the flow-list fuzzer).
    flows.reserve(std::min<uint64_t>(count, text.size() / 12 + 1));
    for (uint64_t i = 0; i < count; ++i)
    {
        if (!nextLine())
        {
            ++lineNo;
            fail("the first line announces " + std::to_string(count) + " flows but only " +
                 std::to_string(i) + " follow; allowed: exactly that many flow lines");
        }
        std::istringstream ls(line);
        std::vector<std::string> f;
        std::string tok;
        while (ls >> tok)
        {
            f.push_back(tok);
        }
        if (f.size() != 6)
        {
            fail("'" + line + "' has " + std::to_string(f.size()) +
                 " fields; allowed: 'src dst priority dport bytes start_s'");
        }
        uint64_t src, dst, prio, dport, bytes;
        if (!ToUint(f[0], src) || !ToUint(f[1], dst) || src > UINT32_MAX || dst > UINT32_MAX)
        {
            fail("src/dst '" + f[0] + " " + f[1] + "' are not node ids; allowed: integers");
        }
        if (src == dst)
        {
            fail("src and dst are both " + f[0] + "; allowed: two different hosts");
        }
        if (!ToUint(f[2], prio) || prio > 7)
        {
            fail("priority '" + f[2] + "' is not allowed; allowed: 0..7");
        }
        if (!ToUint(f[3], dport) || dport > 65535)
        {
            fail("dport '" + f[3] + "' is not allowed; allowed: 0..65535");
        }
        if (!ToUint(f[4], bytes) || bytes == 0)
        {
            fail("bytes '" + f[4] + "' is not allowed; allowed: an integer > 0");
        }
        char* end = nullptr;
        double start = std::strtod(f[5].c_str(), &end);
        if (end != f[5].c_str() + f[5].size() || !std::isfinite(start) || start < 0)
        {
            fail("start '" + f[5] + "' is not allowed; allowed: seconds >= 0");
        }
        flows.push_back({static_cast<uint32_t>(src),
                         static_cast<uint32_t>(dst),
                         static_cast<uint32_t>(prio),
                         static_cast<uint32_t>(dport),
                         bytes,
                         start});
    }
    return flows;
}

std::vector<FlowSpec>
FlowList::Load(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
    {
        throw std::invalid_argument(path + ": cannot read the flow file; allowed: a readable "
                                           "HPCC-format flow list");
    }
    std::ostringstream ss;
    ss << f.rdbuf();
    return Parse(ss.str(), path);
}

} // namespace ns3
