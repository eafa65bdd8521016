#include "rebirth/popeye_order.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "rebirth/movegen.h"
#include "rebirth/rules.h"
#include "rules/movegen_rules.h"

namespace rebirth {

namespace {

// Rank of a promotion walk in Popeye's promotion sequence (Q, S, R, B, then fairy walks).
int promotion_rank(Walk w) {
    switch (w) {
        case NO_WALK:
            return 0;
        case QUEEN:
            return 1;
        case KNIGHT:
            return 2;
        case ROOK:
            return 3;
        case BISHOP:
            return 4;
        default:
            return 5 + w;
    }
}

int sign(int v) { return (v > 0) - (v < 0); }

// Index of a step direction (df, dr) in Popeye's generation order: the eight queen lines, then
// the eight knight leaps in the order of Popeye's vector table (pieces/walks/vectors.c: 22, 47,
// 49, 26, -22, -47, -49, -26 on its 24-column board); -1 for other steps.
int direction_index(int df, int dr) {
    static constexpr std::array<std::array<int, 2>, 16> dirs{{{1, 0},
                                                              {0, 1},
                                                              {-1, 0},
                                                              {0, -1},
                                                              {-1, 1},
                                                              {1, 1},
                                                              {1, -1},
                                                              {-1, -1},
                                                              {-2, 1},
                                                              {-1, 2},
                                                              {1, 2},
                                                              {2, 1},
                                                              {2, -1},
                                                              {1, -2},
                                                              {-1, -2},
                                                              {-2, -1}}};
    for (int i = 0; i < 16; ++i)
        if (dirs[i][0] == df && dirs[i][1] == dr) return i;
    return -1;
}

// Where Popeye generates move m among the moves of its unit (higher = generated later, so
// tried earlier: Popeye plays the moves of a ply from the top of its move stack).
int generation_rank(const Position& pos, const Move& m) {
    if (m.kind == MoveKind::Castling) return 10000 + (file_of(m.to) == 2 ? 1 : 0);
    const Piece mover = pos.piece_on(m.from);
    // Mars/Anti-Mars moves start from the rebirth square (m.extra). Anti-Mars generates the
    // moves from the rebirth square first.
    const RuleSet* rules = pos.has_rules() ? pos.rules() : nullptr;
    const bool mars = rules && (rules->mars || rules->antimars) && m.extra != SQ_NONE;
    const Square from = mars ? m.extra : m.from;
    // Mars Circe generates a unit's captures from the rebirth square after its other moves,
    // so they are tried first (BEISPIEL/mars.inp: 1...d4-d7*c6 before 1...d4-d3).
    const int base = (rules && rules->antimars && !mars) || (rules && rules->mars && mars) ? 1000 : 0;
    const int df = file_of(m.to) - file_of(from);
    const int dr = rank_of(m.to) - rank_of(from);
    if (mover.walk == PAWN) {
        if (df < 0) return base;
        if (df > 0) return base + 1;
        return base + 2 + std::abs(dr);
    }
    int dir = -1;
    int steps = 1;
    if (df == 0 || dr == 0 || std::abs(df) == std::abs(dr)) {
        dir = direction_index(sign(df), sign(dr));
        steps = std::max(std::abs(df), std::abs(dr));
    } else {
        const int g = std::gcd(std::abs(df), std::abs(dr));
        dir = direction_index(df / g, dr / g);
        steps = g;
    }
    return base + (dir < 0 ? 20 : dir) * 16 + steps;
}

// Popeye's orthodox mating-move generator: a pawn's en passant capture, its single and double
// steps, its captures to the left and to the right are generated in this order (tried in
// reverse); other units as in generation_rank.
int final_pawn_rank(const Move& m) {
    if (m.kind == MoveKind::EnPassant) return 0;
    const int df = file_of(m.to) - file_of(m.from);
    if (df == 0) return std::abs(rank_of(m.to) - rank_of(m.from));  // 1 single, 2 double
    return df < 0 ? 3 : 4;
}

// Where Popeye generates the Circe Take&Make rebirth of move m's captured unit among its
// choices: the reborn unit's walk from the capture square, direction by direction in the order
// of direction_index, nearer squares first; a pawn's single step before its double step. The
// choices are tried in this order (Popeye 4.104: g4*f5[+bSd6] before [+bSe7]; a7*b8=Q[+bRc8]
// before [+bRa8] before [+bRb7]: data/popeye-oracle/takemake_rebirth_order).
int make_rank(const Position& pos, const Move& m) {
    const Square cap = capture_square(m, pos.piece_on(m.from).color);
    const int df = file_of(m.rebirth) - file_of(cap);
    const int dr = rank_of(m.rebirth) - rank_of(cap);
    if (df == 0 && dr == 0) return 0;
    const int g = std::gcd(std::abs(df), std::abs(dr));
    const int dir = direction_index(df / g, dr / g);
    return (dir < 0 ? 20 : dir) * 16 + std::min(g, 15);
}

// The sort key of move m within its unit's moves: a before b in popeye_ordered_moves iff
// key(a) < key(b) (equal keys keep generation order). `anti`: Anti-Circe with the capturer
// reborn, where the rebirth choices are ordered too. `take_make`: Circe Take&Make, whose
// rebirth choices follow the reborn unit's walk (make_rank), not the square order.
std::uint64_t unit_key(const Position& pos, const Move& m, bool final_move, bool anti, bool take_make) {
    const bool pawn = pos.piece_on(m.from).walk == PAWN;
    const int g = final_move && pawn ? final_pawn_rank(m) : generation_rank(pos, m);
    std::uint64_t k = static_cast<std::uint64_t>(16383 - g);  // later generated, tried first
    k = (k << 8) | static_cast<std::uint64_t>(promotion_rank(m.promotion));
    k = (k << 8) | static_cast<std::uint64_t>(promotion_rank(m.rebirth_walk));
    const bool made = take_make && m.rebirth != SQ_NONE;
    k = (k << 9) | static_cast<std::uint64_t>(made ? make_rank(pos, m) : static_cast<int>(m.rebirth));
    if (anti) {
        // Anti-Circe: no rebirth (Relaxed) first, then the capturer's rebirth square, then
        // the walk a pawn reborn on its last rank promotes to, Q S R B
        // (EXAMPLES/antisup.inp: [wPb7->a8=Q], [wPb7->a8=S], ...).
        k = (k << 7) | (m.extra == SQ_NONE ? 0u : static_cast<std::uint64_t>(m.extra) + 1);
        k = (k << 8) | static_cast<std::uint64_t>(promotion_rank(Walk(m.spare)));
    } else {
        k <<= 15;
    }
    return k;
}

}  // namespace

// Sorts `list` by (unit, unit_key), stably; units from a1 up (from h8 down when `final_move`).
void popeye_sort(const Position& pos, MoveList& list, bool final_move) {
    const RuleSet* rules = pos.has_rules() ? pos.rules() : nullptr;
    const bool anti = rules && (rules->reborn == Reborn::Capturer || rules->reborn == Reborn::Both);
    const bool take_make = rules && rules->square == SquareRule::TakeMake;
    struct Keyed {
        std::uint64_t key;
        Move move;
    };
    const int n = list.size();
    std::array<Keyed, MAX_MOVES> in_place;
    std::vector<Keyed> on_heap(n > MAX_MOVES ? size_t(n) : 0);
    Keyed* keyed = n > MAX_MOVES ? on_heap.data() : in_place.data();
    for (int i = 0; i < n; ++i) {
        const Move& m = list[i];
        const std::uint64_t unit = final_move ? 63 - static_cast<int>(m.from) : static_cast<int>(m.from);
        keyed[i] = {(unit << 57) | unit_key(pos, m, final_move, anti, take_make), m};
    }
    // Insertion sort: stable, and the lists are short.
    for (int i = 1; i < n; ++i) {
        const Keyed x = keyed[i];
        int j = i;
        for (; j > 0 && keyed[j - 1].key > x.key; --j) keyed[j] = keyed[j - 1];
        keyed[j] = x;
    }
    for (int i = 0; i < n; ++i) list[i] = keyed[i].move;
}

bool popeye_final_move_generator(const Position& pos) {
    if (pos.has_fairy()) return false;
    if (!pos.has_rules()) return true;
    const RuleSet& R = *pos.rules();
    if (R.orthodox()) return true;
    return R.reborn == Reborn::Captured && R.rex == Rex::Exclusive && R.occupied != Occupied::Volcanic &&
           R.occupied != Occupied::Parachute && R.occupied != Occupied::Assassin && R.occupied != Occupied::Ultra &&
           R.square != SquareRule::Parrain && R.square != SquareRule::ContraParrain && !R.mars && !R.antimars &&
           !R.chameleon && !R.turncoat;
}

void popeye_ordered_final_moves(const Position& pos, MoveList& list) {
    generate_legal(pos, list);
    popeye_sort(pos, list, true);
}

void popeye_ordered_pseudo_moves(const Position& pos, MoveList& list) {
    list.clear();
    if (!pos.has_rules() || pos.rules()->orthodox())
        generate_pseudo_legal(pos, list);
    else
        generate_rule_moves(pos, pos.side_to_move(), pos.pieces(~pos.side_to_move()), true, list);
    // The king is never taken: captures of it are not moves.
    int kept = 0;
    for (int i = 0; i < list.size(); ++i)
        if (pos.piece_on(list[i].to).walk != KING || list[i].kind == MoveKind::Castling) list[kept++] = list[i];
    list.truncate(kept);
    popeye_sort(pos, list, false);
}

// The legal moves of `pos` in the order Popeye tries them: units from a1 to h8, each unit's
// moves in reverse generation order, promotions Q S R B.
void popeye_ordered_moves(const Position& pos, MoveList& list) {
    generate_legal(pos, list);
    popeye_sort(pos, list, false);
}

}  // namespace rebirth
