#include "trace-event-writer.h"

#include "results-writer.h"

#include <map>
#include <sstream>

namespace ns3
{

std::string
TraceEventWriter::Format(const std::vector<RunResult>& runs)
{
    std::ostringstream os;
    os.precision(12);
    os << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    bool first = true;
    auto sep = [&]() -> std::ostream& {
        os << (first ? "" : ",\n");
        first = false;
        return os;
    };
    uint32_t pid = 1;
    for (const auto& r : runs)
    {
        const uint32_t workersPid = pid++;
        const uint32_t portsPid = pid++;
        sep() << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << workersPid
              << ",\"args\":{\"name\":" << ResultsWriter::JsonString(r.algorithm + " workers")
              << "}}";
        sep() << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << portsPid
              << ",\"args\":{\"name\":" << ResultsWriter::JsonString(r.algorithm + " ports")
              << "}}";
        std::map<uint32_t, bool> hosts;
        for (const auto& t : r.transfers)
        {
            if (!hosts.count(t.src))
            {
                hosts[t.src] = true;
                sep() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << workersPid
                      << ",\"tid\":" << t.src << ",\"args\":{\"name\":\"host " << t.src << "\"}}";
            }
            double end = t.endS >= 0 ? t.endS : t.startS;
            sep() << "{\"ph\":\"X\",\"pid\":" << workersPid << ",\"tid\":" << t.src
                  << ",\"name\":\"t" << t.id << " -> " << t.dst << "\",\"ts\":" << t.startS * 1e6
                  << ",\"dur\":" << (end - t.startS) * 1e6 << ",\"args\":{\"bytes\":" << t.bytes
                  << ",\"iteration\":" << t.iteration << ",\"chunk\":" << t.chunk
                  << ",\"phase\":" << t.phase << "}}";
        }
        std::map<std::string, uint32_t> ports;
        for (const auto& p : r.pauses)
        {
            auto it = ports.find(p.port);
            if (it == ports.end())
            {
                uint32_t tid = static_cast<uint32_t>(ports.size());
                it = ports.emplace(p.port, tid).first;
                sep() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << portsPid
                      << ",\"tid\":" << tid
                      << ",\"args\":{\"name\":" << ResultsWriter::JsonString("port " + p.port)
                      << "}}";
            }
            sep() << "{\"ph\":\"X\",\"pid\":" << portsPid << ",\"tid\":" << it->second
                  << ",\"name\":\"paused prio " << p.priority << "\",\"ts\":" << p.startS * 1e6
                  << ",\"dur\":" << (p.endS - p.startS) * 1e6 << "}";
        }
    }
    os << "\n]}\n";
    return os.str();
}

void
TraceEventWriter::Write(const std::string& path, const std::vector<RunResult>& runs)
{
    ResultsWriter::WriteFileAtomically(path, Format(runs));
}

} // namespace ns3
