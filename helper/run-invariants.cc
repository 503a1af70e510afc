#include "run-invariants.h"

#include "ns3/pfc-switch.h"

namespace ns3
{

std::vector<std::string>
RunInvariants::Check(const PfcNetwork& net, const RunCounters& c)
{
    std::vector<std::string> broken;
    if (c.pfc && c.drops > 0)
    {
        broken.push_back("drops with PFC on (" + std::to_string(c.drops) +
                         " frames): the configuration is not lossless");
    }
    if (c.drained)
    {
        if (c.dataSent != c.dataArrived + c.dataDrops)
        {
            broken.push_back("data packets not conserved: sent " + std::to_string(c.dataSent) +
                             " != arrived " + std::to_string(c.dataArrived) + " + dropped " +
                             std::to_string(c.dataDrops) + " with nothing in flight");
        }
        for (uint32_t v = 0; v < net.ports.size(); ++v)
        {
            uint64_t held = 0;
            if (net.switches[v])
            {
                const SharedBufferMmu& mmu = net.switches[v]->GetMmu();
                held += mmu.SharedUsed();
                for (uint32_t p = 0; p < net.switches[v]->GetNPorts(); ++p)
                {
                    for (uint8_t q = 0; q < 8; ++q)
                    {
                        held += mmu.HeadroomUsed(p, q);
                    }
                }
            }
            for (const auto& dev : net.ports[v])
            {
                for (uint8_t q = 0; q < 8; ++q)
                {
                    held += dev->QueuedBytes(q);
                }
            }
            if (held > 0)
            {
                broken.push_back("buffers not drained: " + net.names[v] + " still accounts " +
                                 std::to_string(held) + " bytes after the last event");
                break; // one node names the leak; the rest would repeat it
            }
        }
        if (!c.completed)
        {
            broken.push_back("messages lost: the network drained but not every posted message "
                             "was delivered");
        }
    }
    return broken;
}

} // namespace ns3
