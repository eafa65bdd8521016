#include "rebirth/perft.h"

#include <stdexcept>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include "rebirth/movegen.h"
#include "rebirth/notation.h"

namespace rebirth {

namespace {

// Subtrees with at least this many plies left are split into parallel tasks.
constexpr int kSplitDepth = 4;

std::uint64_t perft_rec(Position& pos, int depth) {
    MoveList list;
    generate_legal(pos, list);
    if (depth == 1) return std::uint64_t(list.size());
    std::uint64_t n = 0;
    UndoInfo u;
    for (const Move& m : list) {
        pos.do_move(m, u);
        n += perft_rec(pos, depth - 1);
        pos.undo_move(m, u);
    }
    return n;
}

// Parallel over the moves of `pos` while enough depth is left; each task owns a copy.
std::uint64_t perft_par(const Position& pos, int depth) {
    if (depth < kSplitDepth) {
        Position copy = pos;
        return perft(copy, depth);
    }
    MoveList list;
    generate_legal(pos, list);
    return tbb::parallel_reduce(
        tbb::blocked_range<int>(0, list.size(), 1), std::uint64_t(0),
        [&](const tbb::blocked_range<int>& r, std::uint64_t acc) {
            Position child = pos;
            UndoInfo u;
            for (int i = r.begin(); i != r.end(); ++i) {
                child.do_move(list[i], u);
                acc += perft_par(child, depth - 1);
                child.undo_move(list[i], u);
            }
            return acc;
        },
        [](std::uint64_t a, std::uint64_t b) { return a + b; });
}

template <typename F>
auto in_arena(int threads, F&& f) {
    int n = threads > 0 ? threads : tbb::this_task_arena::max_concurrency();
    tbb::task_arena arena(n);
    return arena.execute(std::forward<F>(f));
}

}  // namespace

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    return perft_rec(pos, depth);
}

std::uint64_t perft_checked(Position& pos, int depth) {
    if (depth <= 0) return 1;
    MoveList list;
    generate_legal(pos, list);
    std::uint64_t n = 0;
    for (const Move& m : list) {
        const Key before = pos.key();
        UndoInfo u;
        pos.do_move(m, u);
        std::string why;
        if (!pos.is_consistent(&why)) throw std::logic_error("after do_move: " + why);
        n += perft_checked(pos, depth - 1);
        pos.undo_move(m, u);
        if (!pos.is_consistent(&why)) throw std::logic_error("after undo_move: " + why);
        if (pos.key() != before) throw std::logic_error("undo_move did not restore the key");
    }
    return n;
}

std::uint64_t parallel_perft(const Position& pos, int depth, int threads) {
    if (depth <= 0) return 1;
    return in_arena(threads, [&] { return perft_par(pos, depth); });
}

std::vector<std::pair<std::string, std::uint64_t>> perft_divide(const Position& pos, int depth, int threads) {
    MoveList list;
    generate_legal(pos, list);
    std::vector<std::pair<std::string, std::uint64_t>> out(list.size());
    for (int i = 0; i < list.size(); ++i) out[i].first = move_to_popeye(pos, list[i], true);
    in_arena(threads, [&] {
        tbb::parallel_for(0, list.size(), [&](int i) {
            Position child = pos;
            UndoInfo u;
            child.do_move(list[i], u);
            out[i].second = depth <= 1 ? 1 : perft_par(child, depth - 1);
        });
        return 0;
    });
    return out;
}

}  // namespace rebirth
