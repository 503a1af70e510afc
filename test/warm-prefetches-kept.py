"""Checks that the built library still prefetches what the warming stages ask for.

GCC counts __builtin_prefetch as free of side effects: a helper whose only effects are
prefetches can be found `const` and its call deleted (model/prefetch-line.h). No test of
behaviour can see that (a prefetch changes no result), so this reads the machine code: each
function below must hold at least as many prefetch instructions as its stages issue, counted
from the source in the comment beside it.

Usage: warm-prefetches-kept.py LIBRARY
"""
import re, subprocess, sys

# Demangled name -> (minimum prefetch instructions, where the count comes from).
EXPECTED = {
    "ns3::PfcSwitch::WarmRelayReceive(int, unsigned int, ns3::RoceFrameInfo const&, "
    "ns3::PortWarmHints const&) const":
        (11, "stage 1: the switch's two lines, the ingress account (SharedBufferMmu::"
             "WarmAccountAt) and the table's line, from the device's hints; stage 2: the "
             "MMU's line (SharedBufferMmu::WarmAccount 1), the lane's runs and the routes "
             "(ForwardingTable::WarmLookup 2: a loop each) and the line of the route it "
             "remembers (ForwardingTable::PeekedRoute); stage 3: the egress device's two "
             "transmit lines (PfcNetDevice::WarmTransmit 1) and the egress queue's line"),
    # What a device's receive line calls (FrameReceiveWarmer): the same stages, inlined.
    "void ns3::PfcFrameRelay::WarmReceiveOf<ns3::PfcSwitch>(void const*, int, unsigned int, "
    "ns3::RoceFrameInfo const&, ns3::PortWarmHints const&)":
        (11, "as PfcSwitch::WarmRelayReceive, whose body it holds"),
    "void ns3::PfcFrameSink::WarmReceiveOf<ns3::RoceNic>(void const*, int, unsigned int, "
    "ns3::RoceFrameInfo const&, ns3::PortWarmHints const&)":
        (4, "RoceNic::WarmSinkReceive: stage 1: the NIC's two per-packet lines; stage 2: a "
            "data frame's responder state or an ACK's QP pointer (stage 3 calls WarmQp)"),
    "ns3::PfcNetDevice::TransmitEvent<&ns3::PfcNetDevice::TransmitComplete>::Warm(int) const":
        (3, "stage 1: the likely puller's line (its vptr) and the device's two transmit lines "
            "(PfcNetDevice::WarmTransmit 1)"),
    "ns3::RoceNic::WarmSourcePull(int, unsigned int, void const*) const":
        (6, "stage 1: the NIC's first line and the port (the device's hint); stage 2: its "
            "round robin's next entry; stage 3: that QP's two lines (RoceNic::WarmQp) and its "
            "congestion control's first (RoceNic::WarmActiveQp)"),
    "ns3::PfcSwitch::WarmRelayPull(int, unsigned int, unsigned char, void const*) const":
        (6, "stage 1: the switch's two lines and an egress queue's line (the device's hint); "
            "stage 2: the MMU's line (SharedBufferMmu::WarmAccount 1) and the queue's first "
            "slot; stage 3: the ingress account of the frame in it (WarmAccount 2)"),
}


def prefetch_counts(disassembly):
    """Prefetch instructions per function of objdump -d -C output."""
    counts, name = {}, None
    for line in disassembly.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            name = m.group(1)
            counts.setdefault(name, 0)
        elif name is not None and re.search(r"\bprefetch", line):
            counts[name] += 1
    return counts


def main(library):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", library],
                         check=True, capture_output=True, text=True).stdout
    counts = prefetch_counts(out)
    failed = False
    for name, (least, why) in EXPECTED.items():
        got = counts.get(name)
        if got is None:
            print("FAIL: %s is not in %s" % (name, library))
            failed = True
        elif got < least:
            print("FAIL: %s holds %d prefetch instructions, its stages issue %d (%s)"
                  % (name, got, least, why))
            failed = True
        else:
            print("ok: %s: %d prefetch instructions (at least %d)" % (name, got, least))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
