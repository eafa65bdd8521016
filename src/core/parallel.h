#pragma once

#include <cstddef>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace rebirth {

// body(i) for every i in [0, n): with threads == 1 in order on the calling thread, without
// TBB (a one-thread run never starts the scheduler, which costs about a millisecond);
// otherwise by work stealing in the current arena. Callers keep each i's result apart, so the
// output does not depend on the order.
template <class Body>
void for_each_index(int threads, size_t n, Body&& body) {
    if (threads == 1) {
        for (size_t i = 0; i < n; ++i) body(i);
        return;
    }
    tbb::parallel_for(size_t(0), n, [&](size_t i) { body(i); });
}

// f() in an arena of `threads` threads (0: all cores), or directly when threads == 1.
template <class F>
void run_in_arena(int threads, F&& f) {
    if (threads == 1) {
        f();
        return;
    }
    tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
    arena.execute(f);
}

}  // namespace rebirth
