#include "mpi-session.h"

#include "ns3/abort.h"

#include <cstdlib>
#include <cstring>

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

namespace ns3
{

bool
MpiSession::Built()
{
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

bool
MpiSession::NonZeroRankFromEnvironment()
{
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK"})
    {
        const char* rank = std::getenv(name);
        if (rank && std::strcmp(rank, "0") != 0)
        {
            return true;
        }
    }
    return false;
}

#ifdef NS3_MPI

MpiSession::MpiSession(int* argc, char*** argv)
{
    MpiInterface::Enable(argc, argv);
}

MpiSession::~MpiSession()
{
    MpiInterface::Disable();
}

bool
MpiSession::Active()
{
    return MpiInterface::IsEnabled();
}

uint32_t
MpiSession::Size()
{
    return Active() ? MpiInterface::GetSize() : 1;
}

uint32_t
MpiSession::Rank()
{
    return Active() ? MpiInterface::GetSystemId() : 0;
}

std::pair<bool, uint64_t>
MpiSession::CombineLook(bool unfinished, uint64_t events)
{
    if (!Active())
    {
        return {unfinished, events};
    }
    uint64_t local[2] = {unfinished ? 1u : 0u, events};
    uint64_t global[2] = {0, 0};
    MPI_Allreduce(local, global, 2, MPI_UINT64_T, MPI_SUM, MpiInterface::GetCommunicator());
    return {global[0] > 0, global[1]};
}

uint64_t
MpiSession::Sum(uint64_t value)
{
    if (!Active())
    {
        return value;
    }
    uint64_t sum = 0;
    MPI_Allreduce(&value, &sum, 1, MPI_UINT64_T, MPI_SUM, MpiInterface::GetCommunicator());
    return sum;
}

bool
MpiSession::FromRankZero(bool value)
{
    if (!Active())
    {
        return value;
    }
    int v = value ? 1 : 0;
    MPI_Bcast(&v, 1, MPI_INT, 0, MpiInterface::GetCommunicator());
    return v != 0;
}

std::vector<std::string>
MpiSession::GatherOnRankZero(const std::string& bytes)
{
    if (!Active())
    {
        return {bytes};
    }
    const uint32_t ranks = Size();
    int size = static_cast<int>(bytes.size());
    NS_ABORT_MSG_IF(bytes.size() > static_cast<size_t>(INT32_MAX),
                    "MpiSession: a rank's results exceed 2 GiB");
    std::vector<int> sizes(ranks, 0);
    MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MpiInterface::GetCommunicator());
    std::vector<int> offsets(ranks, 0);
    size_t total = 0;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        offsets[r] = static_cast<int>(total);
        total += static_cast<size_t>(sizes[r]);
    }
    std::string all(Rank() == 0 ? total : 0, '\0');
    MPI_Gatherv(bytes.data(),
                size,
                MPI_BYTE,
                all.data(),
                sizes.data(),
                offsets.data(),
                MPI_BYTE,
                0,
                MpiInterface::GetCommunicator());
    std::vector<std::string> parts;
    if (Rank() == 0)
    {
        for (uint32_t r = 0; r < ranks; ++r)
        {
            parts.push_back(all.substr(offsets[r], sizes[r]));
        }
    }
    return parts;
}

#else // no MPI: one process, everything local

MpiSession::MpiSession(int* /* argc */, char*** /* argv */)
{
    NS_FATAL_ERROR("MpiSession: this paramsync was built without MPI");
}

MpiSession::~MpiSession() = default;

bool
MpiSession::Active()
{
    return false;
}

uint32_t
MpiSession::Size()
{
    return 1;
}

uint32_t
MpiSession::Rank()
{
    return 0;
}

std::pair<bool, uint64_t>
MpiSession::CombineLook(bool unfinished, uint64_t events)
{
    return {unfinished, events};
}

uint64_t
MpiSession::Sum(uint64_t value)
{
    return value;
}

bool
MpiSession::FromRankZero(bool value)
{
    return value;
}

std::vector<std::string>
MpiSession::GatherOnRankZero(const std::string& bytes)
{
    return {bytes};
}

#endif

} // namespace ns3
