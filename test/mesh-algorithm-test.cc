#include "ns3/mesh-algorithm.h"
#include "ns3/plan-checker.h"
#include "ns3/sync-algorithm.h"
#include "ns3/topology.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{
/// Test-only: n hosts and no links; mesh only reads the host count.
class HostsOnly : public Topology
{
  public:
    explicit HostsOnly(uint32_t n)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            m_graph.AddHost("h" + std::to_string(i));
        }
    }
    std::string
    Spec() const override
    {
        return "hosts";
    }
    std::string
    Family() const override
    {
        return "hosts";
    }
    void
    NextHops(NodeIndex, HostRank, uint8_t, std::vector<RouteHop>& out) const override
    {
        out.clear();
    }
};
} // namespace

TEST(MeshAlgorithm, CheckerAcceptsAndVolumesMatchClosedForm)
{
    for (uint32_t n : {1u, 2u, 3u, 5u, 8u})
    {
        HostsOnly topo(n);
        // W = 8400 is divisible by 1,2,3,5,8: per worker sends (N-1) chunks in each phase,
        // 2(N-1)W/N bytes, and receives as much.
        ModelProfile model = ModelProfile::Load("bytes:8400", ".");
        SyncPlan plan = MakeSyncAlgorithm("mesh")->Compile(topo, model);
        PlanCheckResult r = PlanChecker().Check(plan);
        ASSERT_TRUE(r.Ok()) << "n=" << n << "\n" << r.Summary();
        EXPECT_EQ(plan.transfers.size(), 2u * n * (n - 1));
        for (uint32_t p = 0; p < n; ++p)
        {
            EXPECT_EQ(r.sentBytes[p], 2u * (n - 1) * 8400u / n);
            EXPECT_EQ(r.receivedBytes[p], 2u * (n - 1) * 8400u / n);
        }
    }
}

TEST(MeshAlgorithm, RegistryRejectsUnknownNamesAndOptions)
{
    EXPECT_THROW(MakeSyncAlgorithm("nosuch"), std::invalid_argument);
    EXPECT_THROW(MakeSyncAlgorithm("mesh:x=1"), std::invalid_argument);
    std::vector<std::string> names = SyncAlgorithmNames();
    EXPECT_NE(std::find(names.begin(), names.end(), "mesh"), names.end());
}
