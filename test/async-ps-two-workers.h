// The smallest asynchronous PS of the AsyncPsJob tests: two workers, one server, a 1,000 B
// model, three iterations of 1 ms compute. With test/fixed-latency-transport.h (every message
// 100 us) every time, version and delay of a run can be derived by hand; the job and failover
// tests start from it and change what their case needs.
#ifndef PARAMSYNC_TEST_ASYNC_PS_TWO_WORKERS_H
#define PARAMSYNC_TEST_ASYNC_PS_TWO_WORKERS_H

#include "ns3/async-ps-job.h"
#include "ns3/nstime.h"

namespace paramsync_test
{

inline ns3::AsyncPsConfig
TwoWorkers()
{
    ns3::AsyncPsConfig c;
    c.workers = 2;
    c.servers = 1;
    c.modelBytes = 1000;
    c.iterations = 3;
    c.compute = ns3::MilliSeconds(1);
    return c;
}

} // namespace paramsync_test

#endif // PARAMSYNC_TEST_ASYNC_PS_TWO_WORKERS_H
