/*
 * Test bodies of core model units shared by the GoogleTest suites (test/NAME-test.cc) and the
 * ns-3 TestSuites (test/paramsync-ns3-test-suites.cc): each reports to a CheckReporter.
 */
#ifndef PARAMSYNC_MODEL_CHECKS_H
#define PARAMSYNC_MODEL_CHECKS_H

#include "check-reporter.h"

#include "ns3/packet.h"
#include "ns3/roce-frame.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/// \name SharedBufferMmu by hand arithmetic (test/shared-buffer-mmu-checks.cc)
/// @{
void CheckMmuHeadroomFormulaAndSharedPool(CheckReporter& r);
void CheckMmuSharedThenHeadroomThenDrop(CheckReporter& r);
void CheckMmuLossyPriorityHasNoHeadroomAndNoPause(CheckReporter& r);
void CheckMmuLossyClassCannotDriveTheLosslessXoffToZero(CheckReporter& r);
void CheckMmuUpstreamReactionTimeJoinsTheHeadroom(CheckReporter& r);
void CheckMmuDynamicThreshold(CheckReporter& r);
void CheckMmuHeadroomThatDoesNotFitIsAClearError(CheckReporter& r);
void CheckMmuHpccHeadroomReserveAndShiftPerPortRate(CheckReporter& r);
void CheckMmuHpccReserveFillsFirstAndResume3072BelowXoff(CheckReporter& r);
/// @}

/// \name RoCEv2 and PFC frame sizes and bytes (test/roce-header-checks.cc)
/// @{
/// \brief The bytes of a frame.
std::vector<uint8_t> TestFrameBytes(Ptr<const Packet> p);
/// \brief A tagged SEND-middle data frame of 1000 B payload, 10.1.2.3 -> 10.0.10.11, prio 5.
RoceFrameInfo TestDataFrameInfo();
void CheckRoceDataFrameSizeWithVlan(CheckReporter& r);
void CheckRoceFrameSizesWithoutVlanAndAck(CheckReporter& r);
void CheckPfcFrameBytes(CheckReporter& r);
/// @}

} // namespace ns3

#endif // PARAMSYNC_MODEL_CHECKS_H
