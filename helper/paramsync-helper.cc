#include "paramsync-helper.h"

#include "network-recorder.h"
#include "roce-sync-transport.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/model-profile.h"
#include "ns3/roce-nic.h"
#include "ns3/simulator.h"
#include "ns3/sync-algorithm.h"
#include "ns3/sync-job.h"
#include "ns3/sync-plan.h"
#include "ns3/topology.h"

#include <algorithm>

namespace ns3
{

ParamsyncHelper::ParamsyncHelper()
{
    m_nic.SetTypeId("ns3::RoceNic");
}

ParamsyncHelper::~ParamsyncHelper() = default;

void
ParamsyncHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_builder.SetDeviceAttribute(name, value);
}

void
ParamsyncHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_builder.SetChannelAttribute(name, value);
}

void
ParamsyncHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_builder.SetSwitchAttribute(name, value);
}

void
ParamsyncHelper::SetTableAttribute(const std::string& name, const AttributeValue& value)
{
    m_builder.SetTableAttribute(name, value);
}

void
ParamsyncHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_nic.Set(name, value);
}

void
ParamsyncHelper::SetTopology(const std::string& spec, DataRate rate, Time delay)
{
    NS_ABORT_MSG_IF(m_installed, "ParamsyncHelper::SetTopology after Install");
    m_topology = MakeTopology(spec, static_cast<double>(rate.GetBitRate()), delay.GetSeconds());
}

const Topology*
ParamsyncHelper::GetTopology() const
{
    return m_topology.get();
}

const PfcNetwork&
ParamsyncHelper::Install()
{
    NS_ABORT_MSG_IF(!m_topology, "ParamsyncHelper::Install before SetTopology");
    NS_ABORT_MSG_IF(m_installed, "ParamsyncHelper::Install called twice");
    m_net = m_builder.Build(*m_topology);
    m_recorder = std::make_unique<NetworkRecorder>(m_net);
    m_transport = std::make_unique<RoceSyncTransport>(m_net, m_nic);
    m_installed = true;
    return m_net;
}

void
ParamsyncHelper::InstallSyncJob(const std::string& algorithm,
                                const std::string& model,
                                uint32_t iterations)
{
    NS_ABORT_MSG_IF(!m_installed, "ParamsyncHelper::InstallSyncJob before Install");
    NS_ABORT_MSG_IF(m_job, "ParamsyncHelper::InstallSyncJob called twice");
    std::unique_ptr<SyncAlgorithm> algo = MakeSyncAlgorithm(algorithm);
    std::string why;
    if (!algo->AppliesTo(*m_topology, why))
    {
        throw std::invalid_argument("algorithm " + algo->Spec() + " does not apply to " +
                                    m_topology->Spec() + ": " + why);
    }
    m_model = std::make_unique<ModelProfile>(ModelProfile::Load(model, ""));
    m_plan = std::make_unique<SyncPlan>(algo->Compile(*m_topology, *m_model));
    SyncJobConfig config;
    config.iterations = iterations;
    m_job = std::make_unique<SyncJob>(*m_plan, m_model->Tensors(), config);
    m_job->SetTransport(m_transport.get());
    m_transport->SetJob(m_job.get());
    m_job->InstallApplications([this](uint32_t host) { return m_net.Host(host); });
    m_job->Start(Seconds(0));
}

void
ParamsyncHelper::AddFlow(uint32_t srcHost, uint32_t dstHost, uint64_t bytes, Time start)
{
    NS_ABORT_MSG_IF(!m_installed, "ParamsyncHelper::AddFlow before Install");
    const uint32_t hosts = m_topology->Graph().HostCount();
    if (srcHost >= hosts || dstHost >= hosts || srcHost == dstHost || bytes == 0)
    {
        throw std::invalid_argument("flow " + std::to_string(srcHost) + " -> " +
                                    std::to_string(dstHost) + " of " + std::to_string(bytes) +
                                    " B: allowed two different hosts 0.." +
                                    std::to_string(hosts - 1) + " and bytes > 0");
    }
    const size_t i = m_flows.size();
    m_flows.push_back({static_cast<uint32_t>(i), srcHost, dstHost, bytes, start.GetSeconds(), -1});
    Simulator::Schedule(start, [this, i]() {
        const FlowRecord& f = m_flows[i];
        m_transport->SendFlow(f.src, f.dst, f.bytes, [this, i]() {
            m_flows[i].endS = Simulator::Now().GetSeconds();
        });
    });
}

RunResult
ParamsyncHelper::Run(Time stop)
{
    NS_ABORT_MSG_IF(!m_installed, "ParamsyncHelper::Run before Install");
    auto finished = [this]() {
        return (!m_job || m_job->Finished()) &&
               std::all_of(
                   m_flows.begin(), m_flows.end(), [](const FlowRecord& f) { return f.endS >= 0; });
    };
    // Stop as soon as the work is done (periodic model timers, e.g. DCQCN's, would keep the
    // event list busy until `stop`): look after every delivered message, once its event ended.
    for (uint32_t h = 0; h < m_topology->Graph().HostCount(); ++h)
    {
        m_transport->Nic(h)->TraceConnectWithoutContext(
            "MessageReceived",
            Callback<void, uint32_t, uint32_t, uint64_t>([finished](uint32_t, uint32_t, uint64_t) {
                Simulator::ScheduleNow([finished]() {
                    if (finished())
                    {
                        Simulator::Stop();
                    }
                });
            }));
    }
    Simulator::Stop(stop);
    Simulator::Run();

    RunResult result;
    result.topology = m_topology->Spec();
    result.backend = "packet";
    result.algorithm = m_plan ? m_plan->algorithm : "none";
    if (m_job)
    {
        result.model = m_model->Name();
        result.workers = m_plan->workers;
        result.gradientBytes = m_plan->gradientBytes;
        double gstSum = 0;
        for (const Time& g : m_job->Gst())
        {
            result.gstPerIterationS.push_back(g.GetSeconds());
            gstSum += g.GetSeconds();
        }
        if (!m_job->Gst().empty())
        {
            result.gstS = gstSum / static_cast<double>(m_job->Gst().size());
        }
        result.completed = m_job->Finished();
        for (const SyncTransferTimes& t : m_job->Transfers())
        {
            const Transfer& tr = m_plan->transfers[t.id];
            result.transfers.push_back({t.iteration,
                                        t.id,
                                        m_plan->hostOf[tr.src],
                                        m_plan->hostOf[tr.dst],
                                        tr.bytes,
                                        t.start.GetSeconds(),
                                        t.end.IsNegative() ? -1.0 : t.end.GetSeconds(),
                                        tr.chunk,
                                        tr.phase});
        }
    }
    result.flows = m_flows;
    double last = 0;
    for (const FlowRecord& f : m_flows)
    {
        result.completed = result.completed && f.endS >= 0;
        last = std::max(last, f.endS);
    }
    for (const TransferRecord& t : result.transfers)
    {
        last = std::max(last, t.endS);
    }
    result.simS = result.completed ? last : Simulator::Now().GetSeconds();
    m_recorder->Fill(result);
    result.retransmits = m_transport->Retransmits();
    result.events = Simulator::GetEventCount();
    return result;
}

std::string
ParamsyncHelper::PauseSentPath()
{
    return "/NodeList/*/DeviceList/*/$ns3::PfcNetDevice/PauseSent";
}

std::string
ParamsyncHelper::PauseReceivedPath()
{
    return "/NodeList/*/DeviceList/*/$ns3::PfcNetDevice/PauseReceived";
}

std::string
ParamsyncHelper::MessageReceivedPath()
{
    return "/NodeList/*/$ns3::RoceNic/MessageReceived";
}

} // namespace ns3
