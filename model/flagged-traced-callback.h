/*
 * FlaggedTracedCallback: an ns-3 TracedCallback that keeps a flag of its owner up to date,
 * true while a sink is connected.
 *
 * Why: a hot path that fires a trace must first ask whether anyone listens
 * (TracedCallback::IsEmpty), which reads the callback's own list, a cache line of its own. In
 * a network larger than the cache that line is a miss per frame for a trace nobody connected;
 * the owner's flag sits in a line the path reads anyway (model/pfc-net-device.h, the transmit
 * lines).
 *
 * How: ns-3's trace source accessors connect through the member's own type
 * (trace-source-accessor.h: `(p->*m_source).Connect(cb, context)`), so these methods, which
 * hide TracedCallback's, see every connection made by Config paths, TraceConnect and direct
 * calls alike.
 */
#ifndef PARAMSYNC_FLAGGED_TRACED_CALLBACK_H
#define PARAMSYNC_FLAGGED_TRACED_CALLBACK_H

#include "ns3/traced-callback.h"

#include <string>

namespace ns3
{

/// \brief A TracedCallback that sets `*connected` while it has a sink.
template<typename... Ts>
class FlaggedTracedCallback : public TracedCallback<Ts...>
{
  public:
    /// \brief `connected` (owned by the caller, outliving this) follows !IsEmpty().
    explicit FlaggedTracedCallback(bool* connected)
        : m_connected(connected)
    {
        *m_connected = false;
    }
    FlaggedTracedCallback(const FlaggedTracedCallback&) = delete;
    FlaggedTracedCallback& operator=(const FlaggedTracedCallback&) = delete;

    /// \brief As TracedCallback's; raises the flag.
    void
    ConnectWithoutContext(const CallbackBase& callback)
    {
        TracedCallback<Ts...>::ConnectWithoutContext(callback);
        Update();
    }
    /// \brief As TracedCallback's; raises the flag.
    void
    Connect(const CallbackBase& callback, std::string path)
    {
        TracedCallback<Ts...>::Connect(callback, path);
        Update();
    }
    /// \brief As TracedCallback's; lowers the flag with the last sink.
    void
    DisconnectWithoutContext(const CallbackBase& callback)
    {
        TracedCallback<Ts...>::DisconnectWithoutContext(callback);
        Update();
    }
    /// \brief As TracedCallback's; lowers the flag with the last sink.
    void
    Disconnect(const CallbackBase& callback, std::string path)
    {
        TracedCallback<Ts...>::Disconnect(callback, path);
        Update();
    }

  private:
    void
    Update()
    {
        *m_connected = !TracedCallback<Ts...>::IsEmpty();
    }

    bool* m_connected; //!< the owner's flag
};

} // namespace ns3

#endif // PARAMSYNC_FLAGGED_TRACED_CALLBACK_H
