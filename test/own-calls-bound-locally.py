"""Checks that the built library calls its own functions directly, not through the PLT.

A shared library's exported functions can be replaced by another object's at load time (ELF
interposition), so by default a call from one of its source files to a function of another
goes through the PLT: an indirect jump and a GOT load per call, on the packet path of every
hop (the switch's warming calling ForwardingTable::FindRoute, the device calling the relay).
The library is linked with -Bsymbolic-functions (CMakeLists.txt), which binds such calls to
its own definitions. A change to the link line that loses it shows only in the machine code:
this lists the functions the library defines (nm -D --defined-only) and fails on any call
site that reaches one of them through the PLT (objdump -d: `call ... <name@plt>`).

Usage: own-calls-bound-locally.py LIBRARY
"""
import re, subprocess, sys


def defined_functions(library):
    """Names of the functions the library defines and exports (text symbols, weak ones too:
    inline functions and template instances the library holds)."""
    out = subprocess.run(["nm", "-D", "--defined-only", library],
                         check=True, capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in ("T", "W", "i"):
            names.add(fields[2])
    return names


def plt_calls(library):
    """Call sites through the PLT: target name -> number of sites."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", library],
                         check=True, capture_output=True, text=True).stdout
    calls = {}
    for m in re.finditer(r"\b(?:call|jmp)\s+[0-9a-f]+ <([^>]+)@plt>", out):
        calls[m.group(1)] = calls.get(m.group(1), 0) + 1
    return calls


def main(library):
    own = defined_functions(library)
    calls = plt_calls(library)
    if not own or not calls:
        # Something to check on both sides, or the check itself is broken: the library
        # calls ns-3 through the PLT, and defines hundreds of functions.
        print("FAIL: no defined functions (%d) or no PLT calls (%d) found in %s"
              % (len(own), len(calls), library))
        return 1
    bad = {name: n for name, n in calls.items() if name in own}
    if bad:
        for name, n in sorted(bad.items(), key=lambda kv: -kv[1])[:20]:
            print("FAIL: %d call sites reach the library's own %s through the PLT" % (n, name))
        print("FAIL: %d of the library's functions called through the PLT (link with "
              "-Wl,-Bsymbolic-functions)" % len(bad))
        return 1
    print("ok: %d PLT call sites, none to the library's %d own functions"
          % (sum(calls.values()), len(own)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
