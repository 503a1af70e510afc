#!/usr/bin/env python3
"""Checks that ./wscript builds exactly the sources and headers CMake builds.

Usage: check-wscript-lists.py REPO_ROOT CMAKE_LISTS_FILE
CMAKE_LISTS_FILE is written by CMakeLists.txt at configure time (one line
"SOURCES <paths;...>" and one "HEADERS <paths;...>"). wscript is executed with a
stand-in for waf's `bld`, so a wscript that would build other files fails this test.
"""
import sys


class _Task:
    pass


class _Path:
    def __init__(self, root):
        self._root = root

    def abspath(self):
        return self._root


class _FakeBld:
    def __init__(self, root):
        self.path = _Path(root)
        self.module = None
        self.header_tasks = []

    def create_ns3_module(self, name, deps):
        self.module = _Task()
        self.module.name = name
        return self.module

    def __call__(self, features):
        task = _Task()
        task.features = features
        self.header_tasks.append(task)
        return task


def main():
    root, lists_file = sys.argv[1], sys.argv[2]
    cmake = {}
    with open(lists_file) as f:
        for line in f:
            key, _, value = line.strip().partition(' ')
            cmake[key] = sorted(v for v in value.split(';') if v)
    scope = {}
    with open(root + '/wscript') as f:
        exec(compile(f.read(), 'wscript', 'exec'), scope)
    bld = _FakeBld(root)
    scope['build'](bld)
    waf_sources = sorted(bld.module.source)
    waf_headers = sorted(h for t in bld.header_tasks for h in t.source)
    ok = True
    for what, waf, cm in (('sources', waf_sources, cmake['SOURCES']),
                          ('headers', waf_headers, cmake['HEADERS'])):
        if waf != cm:
            ok = False
            print('wscript %s differ from CMakeLists.txt:' % what)
            print('  only in wscript:', sorted(set(waf) - set(cm)))
            print('  only in CMake:  ', sorted(set(cm) - set(waf)))
    if bld.module.name != 'paramsync':
        ok = False
        print('wscript module name is %r, expected paramsync' % bld.module.name)
    print('wscript lists match CMake: %d sources, %d headers' % (len(waf_sources), len(waf_headers))
          if ok else 'FAILED')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
