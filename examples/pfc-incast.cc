/**
 * \file
 * pfc-incast: N senders -> 1 receiver through one shared-buffer switch, each sender posting
 * one message on its own RoCE queue pair at t = 0. It shows what PFC does to an incast
 * (zero drops, pause frames towards the senders, the receiver link kept busy) and what
 * happens without it (drops, go-back-N retransmissions, timeouts).
 *
 *     build/pfc-incast                                  # 8 x 8 MB at 40 Gb/s, PFC on
 *     build/pfc-incast --n=16 --bytes=2MB --pfc=0 --buffer=300KB
 *     build/pfc-incast --cc=dcqcn --rate=100Gbps --delay=2us --out=results/incast
 *     build/pfc-incast --help                           # every option with its default
 *
 * Prints one line per flow (completion time at the receiver and at the sender, beside the
 * fair-share ideal) and the totals: pause frames, paused time, drops, retransmissions,
 * packet-hops (frames sent on any link) and packet-hops per wall-clock second. With --out,
 * writes flows.csv and summary.csv there. Exit codes: 0 ok; 2 bad input (one line on stderr
 * naming the option and what is allowed); 3 a message did not complete.
 */
#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/congestion-control-preset.h"
#include "ns3/network-builder.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-switch.h"
#include "ns3/queue-pair.h"
#include "ns3/roce-frame.h"
#include "ns3/roce-nic.h"
#include "ns3/simulator.h"
#include "ns3/spec-string.h"
#include "ns3/string.h"
#include "ns3/topology.h"
#include "ns3/uinteger.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Parses a whole decimal integer in [lo, hi] or throws naming the option.
uint64_t
ParseInteger(const std::string& text, const std::string& option, uint64_t lo, uint64_t hi)
{
    std::size_t used = 0;
    uint64_t v = 0;
    try
    {
        v = std::stoull(text, &used);
    }
    catch (const std::exception&)
    {
        used = 0;
    }
    if (used == 0 || used != text.size() || text[0] == '-' || v < lo || v > hi)
    {
        throw std::invalid_argument(option + ": '" + text + "' is not allowed; allowed: an " +
                                    "integer from " + std::to_string(lo) + " to " +
                                    std::to_string(hi));
    }
    return v;
}

/// Rejects an argument that is not one of our options, an ns-3 built-in or an attribute
/// (ns-3's CommandLine would print its help and exit 1 instead of one line and exit 2).
void
CheckArgumentNames(int argc, char* argv[])
{
    // clang-format off
    static const std::set<std::string> known = {
        "n", "bytes", "rate", "delay", "buffer", "pfc", "cc", "mtu", "out",
        // ns-3 CommandLine built-ins
        "help", "PrintHelp", "PrintGlobals", "PrintGroups", "PrintGroup", "PrintTypeIds",
        "PrintAttributes", "PrintVersion", "version"};
    // clang-format on
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (arg.size() < 2 || arg[0] != '-')
        {
            throw std::invalid_argument("argument '" + arg +
                                        "' is not an option; allowed: --name=value (see --help)");
        }
        std::string name = arg.substr(arg[1] == '-' ? 2 : 1);
        name = name.substr(0, name.find('='));
        if (!known.count(name) && name.rfind("ns3::", 0) != 0)
        {
            throw std::invalid_argument("--" + name +
                                        ": unknown option; allowed: the options --help lists");
        }
    }
}

/// One sender's flow.
struct Flow
{
    double receivedS{-1}; //!< last byte at the receiver
    double ackedS{-1};    //!< fully acknowledged at the sender
};

/// The validated inputs.
struct Inputs
{
    uint32_t n{8};
    uint64_t bytes{8000000};
    double rateBps{40e9};
    double delayS{1e-6};
    uint64_t bufferBytes{32u << 20};
    bool pfc{true};
    std::string cc{"none"}; //!< congestion control preset (congestion-control-preset.h)
    uint32_t mtu{4096};
    std::string out;
};

Inputs
ParseInputs(int argc, char* argv[])
{
    std::string nText = "8";
    std::string bytesText = "8MB";
    std::string rateText = "40Gbps";
    std::string delayText = "1us";
    std::string bufferText = "32MiB";
    std::string pfcText = "1";
    std::string ccText = "none";
    std::string mtuText = "4096";
    Inputs in;
    CommandLine cmd(__FILE__);
    cmd.AddValue("n", "number of senders, 1 to 65534", nText);
    cmd.AddValue("bytes", "message size per sender (e.g. 8MB, 512KiB, 1000)", bytesText);
    cmd.AddValue("rate", "rate of every link (e.g. 40Gbps, 100Gbps)", rateText);
    cmd.AddValue("delay", "one-way propagation delay of every link (e.g. 1us, 500ns)", delayText);
    cmd.AddValue(
        "buffer", "shared buffer of the switch, headroom included (e.g. 32MiB, 300KB)", bufferText);
    cmd.AddValue("pfc", "PFC on (1) or off (0: a lossy switch, go-back-N recovers)", pfcText);
    cmd.AddValue("cc", "congestion control preset: none | dcqcn | dcqcn-hpcc", ccText);
    cmd.AddValue("mtu", "RoCE MTU: payload bytes per data packet, 64 to 9000", mtuText);
    cmd.AddValue("out", "directory for flows.csv and summary.csv (default: none)", in.out);
    CheckArgumentNames(argc, argv);
    cmd.Parse(argc, argv);

    in.n = static_cast<uint32_t>(ParseInteger(nText, "--n", 1, 65534));
    in.bytes = ParseBytes(bytesText, "--bytes");
    in.rateBps = ParseRate(rateText, "--rate");
    in.delayS = ParseTime(delayText, "--delay");
    in.bufferBytes = ParseBytes(bufferText, "--buffer");
    if (pfcText == "1" || pfcText == "on")
    {
        in.pfc = true;
    }
    else if (pfcText == "0" || pfcText == "off")
    {
        in.pfc = false;
    }
    else
    {
        throw std::invalid_argument("--pfc: '" + pfcText + "' is not allowed; allowed: 1, 0");
    }
    if (!CongestionControlPreset::Find(ccText))
    {
        throw std::invalid_argument(
            "--cc: '" + ccText + "' is not allowed; allowed: " + CongestionControlPreset::Names());
    }
    in.cc = ccText;
    in.mtu = static_cast<uint32_t>(ParseInteger(mtuText, "--mtu", 64, 9000));
    return in;
}

int
Run(const Inputs& in)
{
    Simulator::SetScheduler(ObjectFactory("ns3::PriorityQueueScheduler"));
    const uint32_t receiver = in.n; // hosts 0..n-1 send, host n receives
    auto topology = MakeTopology("star:n=" + std::to_string(in.n + 1), in.rateBps, in.delayS);
    NetworkBuilder builder;
    builder.SetSwitchAttribute("PfcEnabled", BooleanValue(in.pfc));
    builder.SetSwitchAttribute("BufferSize", UintegerValue(in.bufferBytes));
    // The headroom's MTU term is the largest frame on the wire (model/README-fabric.md).
    builder.SetSwitchAttribute("MaxFrameBytes", UintegerValue(RoceWireBytes(in.mtu, true, false)));
    PfcNetwork net;
    try
    {
        net = builder.Build(*topology);
    }
    catch (const std::invalid_argument& e)
    {
        // The switch refuses a buffer that cannot hold its PFC headroom.
        throw std::invalid_argument(std::string("--buffer: ") + e.what());
    }

    std::vector<Flow> flows(in.n);
    std::vector<Ptr<RoceNic>> nics;
    for (uint32_t h = 0; h <= in.n; ++h)
    {
        Ptr<RoceNic> nic = CreateObject<RoceNic>();
        nic->SetAttribute("HostRank", UintegerValue(h));
        nic->SetAttribute("Mtu", UintegerValue(in.mtu));
        net.Host(h)->AggregateObject(nic);
        for (const auto& dev : net.HostPorts(h))
        {
            nic->AddPort(dev);
        }
        CongestionControlPreset::Find(in.cc)->ApplyTo(nic, net.HostPorts(h).front()->GetDataRate());
        net.SetHostReceive(h, MakeCallback(&RoceNic::Receive, nic));
        nics.push_back(nic);
    }
    nics[receiver]->SetMessageReceivedCallback([&flows](uint32_t src, uint32_t, uint64_t) {
        flows[src].receivedS = Simulator::Now().GetSeconds();
    });
    for (uint32_t s = 0; s < in.n; ++s)
    {
        Ptr<QueuePair> qp = nics[s]->CreateQueuePair(receiver);
        nics[s]->PostSend(
            qp, in.bytes, [&flows, s]() { flows[s].ackedS = Simulator::Now().GetSeconds(); });
    }

    const auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    const double wallS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();

    // Fair-share ideal: the receiver link carries every sender's wire bytes back to back.
    const uint64_t full = in.bytes / in.mtu;
    const uint64_t tail = in.bytes - full * in.mtu;
    const uint64_t wirePerFlow = full * RoceWireBytes(in.mtu, true, false) +
                                 (tail ? RoceWireBytes(static_cast<uint32_t>(tail), true, false)
                                       : 0);
    const double idealS = in.n * wirePerFlow * 8.0 / in.rateBps;

    uint64_t pausesSent = 0;
    uint64_t packetHops = 0;
    double pausedS = 0;
    for (uint32_t node = 0; node < net.ports.size(); ++node)
    {
        for (const auto& dev : net.ports[node])
        {
            for (uint8_t p = 0; p < kPfcPriorities; ++p)
            {
                pausesSent += dev->GetPauseFramesSent(p);
                packetHops += dev->GetTxFrames(p);
                pausedS += dev->GetPausedTime(p).GetSeconds();
            }
        }
    }
    uint64_t drops = 0;
    for (const auto& sw : net.switches)
    {
        drops += sw ? sw->GetTotalDrops() : 0;
    }
    uint64_t retransmits = 0;
    uint64_t timeouts = 0;
    for (const auto& nic : nics)
    {
        retransmits += nic->GetRetransmittedPackets();
        timeouts += nic->GetTimeouts();
    }
    uint32_t incomplete = 0;
    double lastS = 0;
    for (const auto& f : flows)
    {
        incomplete += f.receivedS < 0 || f.ackedS < 0;
        lastS = std::max(lastS, f.receivedS);
    }

    std::cout << "pfc-incast: " << in.n << " x " << in.bytes << " B -> 1, " << in.rateBps / 1e9
              << " Gb/s, " << in.delayS * 1e6 << " us, PFC " << (in.pfc ? "on" : "off") << ", "
              << in.cc << ", MTU " << in.mtu << ", buffer " << in.bufferBytes << " B\n";
    std::cout << std::fixed << std::setprecision(3);
    std::cout << "flow  received_us     acked_us\n";
    for (uint32_t s = 0; s < in.n; ++s)
    {
        std::cout << std::setw(4) << s << std::setw(13) << flows[s].receivedS * 1e6 << std::setw(13)
                  << flows[s].ackedS * 1e6 << "\n";
    }
    std::cout << "last message at the receiver  " << lastS * 1e6 << " us (fair-share ideal "
              << idealS * 1e6 << " us, wire bytes / rate)\n"
              << "pause frames sent             " << pausesSent << "\n"
              << "paused time (sum over ports)  " << pausedS * 1e6 << " us\n"
              << "drops                         " << drops << "\n"
              << "retransmitted packets         " << retransmits << " (" << timeouts
              << " timeouts)\n"
              << "packet-hops                   " << packetHops << "\n"
              << "wall time                     " << wallS << " s\n"
              << std::setprecision(0) << "packet-hops per wall second   " << packetHops / wallS
              << "\n";
    if (incomplete)
    {
        std::cout << "incomplete flows              " << incomplete << "\n";
    }

    if (!in.out.empty())
    {
        std::error_code ec;
        std::filesystem::create_directories(in.out, ec);
        std::ofstream fl(in.out + "/flows.csv");
        std::ofstream su(in.out + "/summary.csv");
        if (ec || !fl || !su)
        {
            throw std::invalid_argument("--out: cannot write to directory '" + in.out + "'");
        }
        fl << std::setprecision(3) << std::fixed << "flow,bytes,received_us,acked_us\n";
        for (uint32_t s = 0; s < in.n; ++s)
        {
            fl << s << "," << in.bytes << "," << flows[s].receivedS * 1e6 << ","
               << flows[s].ackedS * 1e6 << "\n";
        }
        su << std::setprecision(3) << std::fixed << "key,value\n"
           << "last_received_us," << lastS * 1e6 << "\nideal_us," << idealS * 1e6
           << "\npause_frames," << pausesSent << "\npaused_us," << pausedS * 1e6 << "\ndrops,"
           << drops << "\nretransmits," << retransmits << "\ntimeouts," << timeouts
           << "\npacket_hops," << packetHops << "\nwall_s," << wallS << "\npacket_hops_per_wall_s,"
           << packetHops / wallS << "\n";
    }
    Simulator::Destroy();
    return incomplete ? 3 : 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    try
    {
        return Run(ParseInputs(argc, argv));
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "pfc-incast: " << e.what() << std::endl;
        return 2;
    }
}
