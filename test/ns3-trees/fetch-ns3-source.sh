#!/bin/sh
# Fetch (once) and unpack Debian's ns-3 source package for one suite, outside the repository.
#
# usage: fetch-ns3-source.sh SUITE
#   SUITE: bookworm (ns-3.37, CMake).
# Prints the path of the unpacked ns-3 tree (…/ns-allinone-3.37/ns-3.37) on stdout.
#
# The tarball is cached in $PARAMSYNC_NS3SRC_CACHE (default ~/.cache/paramsync-ns3src). A
# private apt list holds the deb-src line, so the system's apt configuration is not touched
# (NOTES.md, "ns-3 source trees"). Only `apt-get source --download-only` is used: no root.
set -eu

suite=${1:?usage: fetch-ns3-source.sh SUITE (bookworm)}
case "$suite" in
    bookworm) version=3.37 ;;
    *) echo "fetch-ns3-source.sh: suite '$suite' is not supported (allowed: bookworm)" >&2; exit 2 ;;
esac

cache=${PARAMSYNC_NS3SRC_CACHE:-$HOME/.cache/paramsync-ns3src}
dl=$cache/$suite
tree=$dl/ns-allinone-$version/ns-$version
if [ -f "$tree/ns3" ]; then
    echo "$tree"
    exit 0
fi
mkdir -p "$dl/lists/partial"

tarball=$(ls "$dl"/ns3_"$version"*.orig.tar.* 2>/dev/null | head -n 1 || true)
if [ -z "$tarball" ]; then
    # The machine's own Debian mirror, as apt uses it; deb.debian.org when none is configured.
    uri=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    [ -n "$uri" ] || uri=http://deb.debian.org/debian
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$uri" "$suite" > "$dl/src.sources"
    A="-o Dir::Etc::sourcelist=$dl/src.sources -o Dir::Etc::sourceparts=/dev/null -o Dir::State::Lists=$dl/lists -o Dir::Cache=$dl/apt-cache"
    mkdir -p "$dl/apt-cache/archives/partial"
    # shellcheck disable=SC2086
    apt-get -qq $A update >&2
    # shellcheck disable=SC2086
    (cd "$dl" && apt-get -qq $A source --download-only ns3 >&2)
    tarball=$(ls "$dl"/ns3_"$version"*.orig.tar.* | head -n 1)
fi
echo "fetch-ns3-source.sh: unpacking $tarball" >&2
tar -C "$dl" -xf "$tarball"
[ -f "$tree/ns3" ] || { echo "fetch-ns3-source.sh: $tarball did not unpack to $tree" >&2; exit 1; }
echo "$tree"
