// doctest's runner and main(), for every host test without a main of its
// own: its implementation takes seconds to compile, so it is compiled once.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
