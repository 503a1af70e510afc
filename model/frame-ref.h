/*
 * FrameRef: one reference to a frame that moves without touching the frame's Packet, or a
 * frame that has no Packet at all (its header travels beside it and is all there is of it).
 *
 * ns-3.37's Ptr has no move constructor: every hand-over of a frame (into the arrival event,
 * through a callback, into a switch queue and out again) increments and decrements the count
 * inside the Packet. In a large topology the Packet has left the cache while it travelled or
 * waited, so a switch hop paid a cache miss for the count alone (the largest single cost of
 * a fat-tree run after the event core). A FrameRef holds the same reference as a raw pointer
 * and hands it on by move: a frame whose header travels beside it (RoceFrameInfo) crosses a
 * switch without its Packet being read.
 *
 * Header-only frames (HeaderOnly()): a RoCE frame is fully described by its RoceFrameInfo,
 * which every holder keeps beside the FrameRef (device queues, the arrival event, switch
 * FIFOs), so RoceNic need not build its bytes at all (attribute RoceNic::BuildFrameBytes).
 * Whoever reads a frame's bytes — pcap, a trace with a sink, a sink that parses frames, an
 * MPI crossing — asks Share(header) or Release(header) and gets a Packet that
 * BuildRoceFrame(header) makes: byte for byte the frame a sender would have built and the
 * switches rewritten (CE marks and priority rewrites change the header beside the frame).
 * Only the Packet's identity differs: a new Packet (and uid) at each read. Without a Packet a
 * frame costs its header and size in the queues: about 300 B of Packet, buffer and metadata
 * less per frame in flight, and no allocation, serialization or CRC per frame sent.
 */
#ifndef PARAMSYNC_FRAME_REF_H
#define PARAMSYNC_FRAME_REF_H

#include "roce-frame.h"

#include "ns3/assert.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief A move-only owner of one reference to a Packet, or of a header-only frame.
 */
class FrameRef
{
  public:
    /// \brief No frame.
    FrameRef() = default;
    /// \brief A new reference to frame (touches its count).
    explicit FrameRef(const Ptr<Packet>& frame)
        : m_bits(reinterpret_cast<std::uintptr_t>(PeekPointer(frame)))
    {
        if (frame)
        {
            frame->Ref();
        }
    }
    /// \brief A frame whose bytes were not built: its RoceFrameInfo, kept beside it, is it.
    static FrameRef
    HeaderOnly()
    {
        FrameRef f;
        f.m_bits = kHeaderOnly;
        return f;
    }
    /// \brief Take o's reference; o is empty after.
    FrameRef(FrameRef&& o) noexcept
        : m_bits(o.m_bits)
    {
        o.m_bits = 0;
    }
    /// \brief Drop ours, take o's; o is empty after.
    FrameRef&
    operator=(FrameRef&& o) noexcept
    {
        if (this != &o)
        {
            Reset();
            m_bits = o.m_bits;
            o.m_bits = 0;
        }
        return *this;
    }
    FrameRef(const FrameRef&) = delete;
    FrameRef& operator=(const FrameRef&) = delete;
    ~FrameRef() { Reset(); }

    /// \brief Whether there is a frame (with or without a Packet).
    explicit operator bool() const { return m_bits != 0; }
    /// \brief Whether the frame has no Packet (its header beside it is the frame).
    bool
    IsHeaderOnly() const
    {
        return m_bits == kHeaderOnly;
    }
    /**
     * \brief Another reference as a Ptr (touches the count: traces, rewrites, rare paths);
     * for a header-only frame a Packet built from `header`, which must then be given.
     */
    Ptr<Packet>
    Share(const RoceFrameInfo* header) const
    {
        if (IsHeaderOnly())
        {
            NS_ASSERT_MSG(header, "FrameRef: a header-only frame read without its header");
            return BuildRoceFrame(*header);
        }
        return Ptr<Packet>(Frame());
    }
    /**
     * \brief Our reference as a Ptr, without touching the count; empty after. A header-only
     * frame becomes a Packet built from `header` when `build`, else a null Ptr (for a sink
     * that reads the header alone: PfcNetDevice::GetRxInfo).
     */
    Ptr<Packet>
    Release(const RoceFrameInfo* header, bool build = true)
    {
        if (IsHeaderOnly())
        {
            m_bits = 0;
            if (!build)
            {
                return nullptr;
            }
            NS_ASSERT_MSG(header, "FrameRef: a header-only frame read without its header");
            return BuildRoceFrame(*header);
        }
        Packet* frame = Frame();
        m_bits = 0;
        return Ptr<Packet>(frame, false);
    }

  private:
    /// The value of a header-only frame: never a Packet's address (those are aligned).
    static constexpr std::uintptr_t kHeaderOnly = 1;

    /// \brief The Packet, if there is one.
    Packet*
    Frame() const
    {
        return m_bits > kHeaderOnly ? reinterpret_cast<Packet*>(m_bits) : nullptr;
    }
    /// \brief Drop our reference, if any.
    void
    Reset()
    {
        if (Packet* frame = Frame())
        {
            frame->Unref();
        }
        m_bits = 0;
    }

    std::uintptr_t m_bits{0}; //!< 0: none; kHeaderOnly; else the Packet, one reference held
};

} // namespace ns3

#endif // PARAMSYNC_FRAME_REF_H
