#include "rebirth/proof_tempo.h"

#include <algorithm>
#include <array>
#include <memory>
#include <unordered_map>

#include "core/walk_attacks.h"
#include "rebirth/bitboard.h"
#include "rebirth/distance.h"

namespace rebirth {

namespace {

using ParityTable = std::array<std::array<std::uint8_t, SQUARE_NB>, 2>;

// Breadth-first over (square, parity of the moves made): each state once, at its fewest moves.
void compute(ParityTable& t, Bitboard walls, Walk w, Square from) {
    init_bitboards();
    for (auto& row : t) row.fill(std::uint8_t(kFar));
    std::array<int, 2 * SQUARE_NB> queue{};
    int head = 0, tail = 0;
    t[0][from] = 0;
    queue[tail++] = 2 * from;
    while (head < tail) {
        const int state = queue[head++];
        const Square s = Square(state / 2);
        const int p = state % 2;
        const int d = t[p][s];
        for (Bitboard b = walk_targets(w, s, walls) & ~walls; b;) {
            const Square n = pop_lsb(b);
            if (t[p ^ 1][n] != kFar) continue;
            t[p ^ 1][n] = std::uint8_t(d + 1);
            queue[tail++] = 2 * n + (p ^ 1);
        }
    }
}

// Up to 16 squares, on the stack.
struct Squares {
    std::array<Square, 16> at{};
    int size = 0;
    void push(Square s) {
        if (size < 16) at[size] = s;
        ++size;
    }
};

// The fewest moves of one group of units (the same walk) onto their target squares, by the
// parity of their sum: [0] even, [1] odd (kFar: never). Every way of giving each unit its
// own target square is tried (at most 4 units; more: false, no verdict).
bool group_options(Walk w, const Squares& from, Squares to, Bitboard walls, std::array<int, 2>& out) {
    out = {kFar, kFar};
    if (from.size != to.size || from.size > 4) return false;
    if (from.size == 0) {
        out = {0, kFar};
        return true;
    }
    std::array<const ParityTable*, 4> tables{};
    for (int i = 0; i < from.size; ++i) tables[i] = &parity_distances(walls, w, from.at[i]);
    std::sort(to.at.begin(), to.at.begin() + to.size);
    do {
        std::array<int, 2> sum = {0, kFar};
        for (int i = 0; i < from.size; ++i) {
            const int even = (*tables[i])[0][to.at[i]], odd = (*tables[i])[1][to.at[i]];
            const std::array<int, 2> next = {std::min(sum[0] + even, sum[1] + odd),
                                             std::min(sum[1] + even, sum[0] + odd)};
            sum = {std::min(next[0], int(kFar)), std::min(next[1], int(kFar))};
        }
        out[0] = std::min(out[0], sum[0]);
        out[1] = std::min(out[1], sum[1]);
    } while (std::next_permutation(to.at.begin(), to.at.begin() + to.size));
    return true;
}

// Whether side c may still castle: a castling it keeps the right to with no fixed unit
// between king and rook.
bool may_castle(const Position& pos, Color c, Bitboard fixed) {
    const unsigned sides = pos.castling_sides(c);
    const int r = c == WHITE ? 0 : 7;
    for (int side = 0; side < 2; ++side)
        if ((sides & (1u << side)) && !(between_bb(make_square(4, r), make_square(side ? 7 : 0, r)) & fixed))
            return true;
    return false;
}

}  // namespace

const ParityTable& parity_distances(Bitboard walls, Walk w, Square from) {
    struct Tables {
        std::array<std::array<ParityTable, SQUARE_NB>, 5> table;
        std::array<std::array<bool, SQUARE_NB>, 5> done{};
    };
    thread_local std::unordered_map<Bitboard, std::unique_ptr<Tables>> cache;
    auto it = cache.find(walls);
    if (it == cache.end()) {
        if (cache.size() >= 256) cache.clear();
        it = cache.emplace(walls, std::make_unique<Tables>()).first;
    }
    Tables& t = *it->second;
    const int i = w - KING;
    if (!t.done[i][from]) {
        compute(t.table[i][from], walls, w, from);
        t.done[i][from] = true;
    }
    return t.table[i][from];
}

bool proof_tempo_possible(const Position& pos, const Board& target, Color c, int moves_left) {
    return proof_tempo_possible(pos, target, c, moves_left, fixed_units(pos, target));
}

bool proof_tempo_possible(const Position& pos, const Board& target, Color c, int moves_left, Bitboard fixed) {
    std::array<Bitboard, WALK_NB> wanted{};
    for (int s = 0; s < SQUARE_NB; ++s)
        if (!target[s].empty() && target[s].color == c) wanted[target[s].walk] |= square_bb(Square(s));
    return proof_tempo_possible(pos, wanted, c, moves_left, fixed);
}

bool proof_tempo_possible(const Position& pos, const std::array<Bitboard, WALK_NB>& wanted, Color c, int moves_left,
                          Bitboard fixed) {
    if (moves_left < 0) return true;
    // A unit still to be captured, or a pawn still to promote: no verdict.
    for (Walk w : {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN})
        if (popcount(pos.pieces(c, w)) != popcount(wanted[w])) return true;
    if (may_castle(pos, c, fixed)) return true;
    std::array<int, 2> best = {0, kFar};  // the fewest moves so far, by parity
    auto add = [&](const std::array<int, 2>& g) {
        best = {std::min({best[0] + g[0], best[1] + g[1], int(kFar)}),
                std::min({best[1] + g[0], best[0] + g[1], int(kFar)})};
    };
    for (Walk w : {KING, QUEEN, ROOK, BISHOP, KNIGHT}) {
        Squares from, to;
        for (Bitboard b = pos.pieces(c, w) & ~fixed; b;) from.push(pop_lsb(b));
        for (Bitboard b = wanted[w] & ~fixed; b;) to.push(pop_lsb(b));
        std::array<int, 2> g;
        if (!group_options(w, from, to, fixed, g)) return true;
        add(g);
    }
    // Pawns: each move takes a pawn one rank on, a double step two; so their moves number
    // the ranks they still advance, less one per double step (at most one per pawn on its
    // second rank).
    int advance = 0, second_rank = 0;
    for (Bitboard b = pos.pieces(c, PAWN) & ~fixed; b;) {
        const Square s = pop_lsb(b);
        advance -= relative_rank(c, rank_of(s));
        if (relative_rank(c, rank_of(s)) == 1) ++second_rank;
    }
    for (Bitboard b = wanted[PAWN] & ~fixed; b;) advance += relative_rank(c, rank_of(pop_lsb(b)));
    if (advance < 0) return true;
    const int fewest = std::max(0, advance - second_rank);
    std::array<int, 2> pawns = {kFar, kFar};
    for (int n = fewest; n <= advance; ++n) pawns[n % 2] = std::min(pawns[n % 2], n);
    add(pawns);
    return best[moves_left % 2] <= moves_left;
}

}  // namespace rebirth
