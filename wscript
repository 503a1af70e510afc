# -*- Mode: python; -*-
# paramsync for waf-era ns-3 source trees (<= 3.35): put this folder in src/ or contrib/
# as "paramsync" and run ./waf configure && ./waf build.
#
# The file lists are not repeated here: they are read from the same per-area
# sources.cmake files that CMakeLists.txt includes, so the two builds cannot drift.
# test/check-wscript-lists.py (run by ctest) loads this file with a stand-in `bld` and
# checks that what it would build equals what CMake builds.
import os
import re

AREAS = ['model', 'topologies', 'workloads', 'helper']


def read_cmake_list(path, variable):
    """Returns the entries of `set(VARIABLE ...)` in a sources.cmake file."""
    with open(path) as f:
        text = re.sub(r'#[^\n]*', '', f.read())
    match = re.search(r'set\(\s*' + re.escape(variable) + r'\b([^)]*)\)', text)
    if not match:
        raise ValueError('%s: no set(%s ...)' % (path, variable))
    return match.group(1).split()


def paramsync_file_lists(top):
    """(sources, headers) of the module library, paths relative to `top`."""
    sources, headers = [], []
    for area in AREAS:
        path = os.path.join(top, area, 'sources.cmake')
        key = 'PARAMSYNC_%s' % area.upper()
        sources += read_cmake_list(path, key + '_SOURCES')
        headers += read_cmake_list(path, key + '_HEADERS')
    return sources, headers


def configure(conf):
    conf.env.append_value('CXXFLAGS', ['-std=c++17'])


def build(bld):
    top = bld.path.abspath()
    sources, headers = paramsync_file_lists(top)
    module = bld.create_ns3_module('paramsync', ['core', 'network', 'config-store'])
    module.source = sources
    module.defines = ['PARAMSYNC_SOURCE_DIR="%s"' % top]
    header_task = bld(features='ns3header')
    header_task.module = 'paramsync'
    header_task.source = headers
