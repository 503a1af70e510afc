/*
 * FrameRef: one reference to a frame (Packet) that moves without touching the Packet.
 *
 * ns-3.37's Ptr has no move constructor: every hand-over of a frame (into the arrival event,
 * through a callback, into a switch queue and out again) increments and decrements the count
 * inside the Packet. In a large topology the Packet has left the cache while it travelled or
 * waited, so a switch hop paid a cache miss for the count alone (the largest single cost of
 * a fat-tree run after the event core). A FrameRef holds the same reference as a raw pointer
 * and hands it on by move: a frame whose header travels beside it (RoceFrameInfo) crosses a
 * switch without its Packet being read.
 */
#ifndef PARAMSYNC_FRAME_REF_H
#define PARAMSYNC_FRAME_REF_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

namespace ns3
{

/**
 * \brief A move-only owner of one reference to a Packet.
 */
class FrameRef
{
  public:
    /// \brief No frame.
    FrameRef() = default;
    /// \brief A new reference to frame (touches its count).
    explicit FrameRef(const Ptr<Packet>& frame)
        : m_frame(PeekPointer(frame))
    {
        if (m_frame)
        {
            m_frame->Ref();
        }
    }
    /// \brief Take o's reference; o is empty after.
    FrameRef(FrameRef&& o) noexcept
        : m_frame(o.m_frame)
    {
        o.m_frame = nullptr;
    }
    /// \brief Drop ours, take o's; o is empty after.
    FrameRef&
    operator=(FrameRef&& o) noexcept
    {
        if (this != &o)
        {
            Reset();
            m_frame = o.m_frame;
            o.m_frame = nullptr;
        }
        return *this;
    }
    FrameRef(const FrameRef&) = delete;
    FrameRef& operator=(const FrameRef&) = delete;
    ~FrameRef() { Reset(); }

    /// \brief Whether there is a frame.
    explicit operator bool() const { return m_frame != nullptr; }
    /// \brief Another reference as a Ptr (touches the count: traces, rewrites, rare paths).
    Ptr<Packet>
    Share() const
    {
        return Ptr<Packet>(m_frame);
    }
    /// \brief Our reference as a Ptr, without touching the count; empty after.
    Ptr<Packet>
    Release()
    {
        Packet* frame = m_frame;
        m_frame = nullptr;
        return Ptr<Packet>(frame, false);
    }

  private:
    /// \brief Drop our reference, if any.
    void
    Reset()
    {
        if (m_frame)
        {
            m_frame->Unref();
            m_frame = nullptr;
        }
    }

    Packet* m_frame{nullptr}; //!< the frame, one reference held
};

} // namespace ns3

#endif // PARAMSYNC_FRAME_REF_H
