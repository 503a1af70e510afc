// SharedBufferMmu by hand arithmetic (no simulator); the bodies, with their derivations, are
// in shared-buffer-mmu-checks.cc (shared with the ns-3 TestSuite paramsync-shared-buffer-mmu).
#include "gtest-reporter.h"
#include "model-checks.h"

namespace ns3
{
namespace
{

SHARED_BODY_TEST(SharedBufferMmuTest,
                 HeadroomFormulaAndSharedPool,
                 CheckMmuHeadroomFormulaAndSharedPool)
SHARED_BODY_TEST(SharedBufferMmuTest,
                 SharedThenHeadroomThenDrop,
                 CheckMmuSharedThenHeadroomThenDrop)
SHARED_BODY_TEST(SharedBufferMmuTest,
                 LossyPriorityHasNoHeadroomAndNoPause,
                 CheckMmuLossyPriorityHasNoHeadroomAndNoPause)
SHARED_BODY_TEST(SharedBufferMmuTest,
                 ALossyClassCannotDriveTheLosslessXoffToZero,
                 CheckMmuLossyClassCannotDriveTheLosslessXoffToZero)
SHARED_BODY_TEST(SharedBufferMmuTest,
                 TheUpstreamsReactionTimeJoinsTheHeadroom,
                 CheckMmuUpstreamReactionTimeJoinsTheHeadroom)
SHARED_BODY_TEST(SharedBufferMmuTest, DynamicThreshold, CheckMmuDynamicThreshold)
SHARED_BODY_TEST(SharedBufferMmuTest,
                 HeadroomThatDoesNotFitIsAClearError,
                 CheckMmuHeadroomThatDoesNotFitIsAClearError)
SHARED_BODY_TEST(SharedBufferMmuTest,
                 HpccHeadroomReserveAndShiftPerPortRate,
                 CheckMmuHpccHeadroomReserveAndShiftPerPortRate)
SHARED_BODY_TEST(SharedBufferMmuTest,
                 HpccReserveFillsFirstAndResume3072BelowXoff,
                 CheckMmuHpccReserveFillsFirstAndResume3072BelowXoff)

} // namespace
} // namespace ns3
