/*
 * PARAMSYNC_FAST_TLS: the thread-local variables the packet path reads per event (the pooled
 * events' free lists, model/pooled-event.h; the warmable event's announcement and scope,
 * model/warmable-event.h) in the initial-exec TLS model.
 *
 * Why: in a shared library (-fPIC) a thread_local has the general-dynamic model, every read
 * a call to __tls_get_addr: ~100 instructions per packet-hop, ~4 % of a fat-tree
 * permutation's (cachegrind, bench/README.md "Then: a cache model"). Initial-exec reads it at
 * a fixed offset from the thread pointer (two instructions). The price: the variables take
 * static TLS space, which a library loaded with dlopen gets from glibc's reserve (some
 * hundreds of bytes by default, tunable glibc.rtld.optional_static_tls); ours need a few
 * words per event class.
 */
#ifndef PARAMSYNC_FAST_TLS_H
#define PARAMSYNC_FAST_TLS_H

#if defined(__GNUC__)
#define PARAMSYNC_FAST_TLS [[gnu::tls_model("initial-exec")]]
#else
#define PARAMSYNC_FAST_TLS
#endif

#endif // PARAMSYNC_FAST_TLS_H
