#include "rebirth/legality.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "core/walk_attacks.h"
#include "rebirth/bitboard.h"
#include "rebirth/walk.h"

namespace rebirth {

namespace {

using Board = std::array<Piece, SQUARE_NB>;

constexpr Bitboard NOT_A = ~FILE_A_BB;
constexpr Bitboard NOT_H = ~file_bb(7);
constexpr Bitboard NOT_AB = ~(FILE_A_BB | file_bb(1));
constexpr Bitboard NOT_GH = ~(file_bb(6) | file_bb(7));
constexpr Bitboard CASTLING_SQUARES =
    square_bb(SQ_E1) | square_bb(SQ_A1) | square_bb(SQ_H1) | square_bb(SQ_E8) | square_bb(SQ_A8) | square_bb(SQ_H8);
constexpr int INF = 1000;
constexpr Bitboard DARK_SQUARES = 0xAA55AA55AA55AA55ULL;  // a1, c1, ..., b2, ...

// The diagram as bitboards.
struct Scan {
    Bitboard color[COLOR_NB]{};
    Bitboard walk[WALK_NB]{};
    Bitboard fairy = 0;  // units of non-orthodox walks, both colours
    Bitboard occ = 0;
    Bitboard of(Color c, Walk w) const { return color[c] & walk[w]; }
};

Scan scan_board(const Board& board) {
    Scan s;
    for (int i = 0; i < SQUARE_NB; ++i) {  // branch-free: empty squares land in walk[NO_WALK]
        const Piece p = board[i];
        const Bitboard bit = square_bb(Square(i));
        s.walk[p.walk % WALK_NB] |= bit;
        s.color[p.color & 1] |= p.walk != NO_WALK ? bit : 0;
        s.fairy |= p.walk > PAWN ? bit : 0;
    }
    s.walk[NO_WALK] = 0;
    s.occ = s.color[WHITE] | s.color[BLACK];
    return s;
}

constexpr Bitboard forward(Color c, Bitboard b) { return c == WHITE ? b << 8 : b >> 8; }
constexpr Bitboard backward(Color c, Bitboard b) { return c == WHITE ? b >> 8 : b << 8; }
constexpr Bitboard sideways(Bitboard b) { return ((b << 1) & NOT_A) | ((b >> 1) & NOT_H); }
constexpr Bitboard relative_rank_bb(Color c, int r) { return rank_bb(c == WHITE ? r : 7 - r); }

enum class Steps : std::uint8_t { Orth, Diag, King, Knight };

// Squares one step of kind k away from the squares of b.
constexpr Bitboard steps(Steps k, Bitboard b) {
    const Bitboard side = sideways(b);
    switch (k) {
        case Steps::Orth:
            return (b << 8) | (b >> 8) | side;
        case Steps::Diag:
            return (side << 8) | (side >> 8);
        case Steps::King:
            return (b << 8) | (b >> 8) | side | (side << 8) | (side >> 8);
        case Steps::Knight: {
            const Bitboard two = ((b << 2) & NOT_AB) | ((b >> 2) & NOT_GH);
            return (side << 16) | (side >> 16) | (two << 8) | (two >> 8);
        }
    }
    return 0;
}

// Squares a unit moving by steps of kind k can visit from `seed` without entering `walls`
// (squares occupied during the whole game). A seed square that is a wall holds the unit
// that never moved there: it reaches only that square. Exact on `targets`: the fill stops
// once all of them are reached, so only `result & targets` is meaningful.
Bitboard reach(Bitboard seed, Bitboard walls, Steps k, Bitboard targets) {
    Bitboard r = seed & ~walls;
    for (;;) {
        if ((r & targets) == targets) break;
        const Bitboard n = (r | steps(k, r)) & ~walls;
        if (n == r) break;
        r = n;
    }
    return r | (seed & walls);
}

// Squares a pawn of colour c starting on `homes` can stand on (forward steps, straight or
// diagonal) within `steps` moves, without entering walls.
constexpr Bitboard pawn_reach(Color c, Bitboard homes, Bitboard walls, int steps = 6) {
    Bitboard r = homes;
    for (int i = 0; i < steps; ++i) {
        const Bitboard f = forward(c, r);
        r |= (f | sideways(f)) & ~walls;
    }
    return r;
}

// The wall-free reach of the pawn starting on each file (its forward cone).
constexpr auto kPawnCones = [] {
    std::array<std::array<Bitboard, 8>, COLOR_NB> cones{};
    for (int f = 0; f < 8; ++f) {
        cones[WHITE][f] = pawn_reach(WHITE, square_bb(make_square(f, 1)), 0);
        cones[BLACK][f] = pawn_reach(BLACK, square_bb(make_square(f, 6)), 0);
    }
    return cones;
}();

std::string color_name(Color c) { return c == WHITE ? "white" : "black"; }

std::string walk_name(Walk w) {
    switch (w) {
        case KING:
            return "king";
        case QUEEN:
            return "queen";
        case ROOK:
            return "rook";
        case BISHOP:
            return "bishop";
        case KNIGHT:
            return "knight";
        case PAWN:
            return "pawn";
        default:
            return std::string(walk_info(w).name);
    }
}

std::string unit_on(const Board& board, Square s) {
    return color_name(board[s].color) + " " + walk_name(board[s].walk) + " on " + square_name(s);
}

LegalityVerdict illegal(std::string reason) { return LegalityVerdict{true, std::move(reason)}; }

// Orthodox units of colour `by` attacking square sq.
Bitboard orthodox_attackers(const Scan& s, Square sq, Color by) {
    const Bitboard diag = s.of(by, BISHOP) | s.of(by, QUEEN);
    const Bitboard orth = s.of(by, ROOK) | s.of(by, QUEEN);
    return (pawn_attacks(~by, sq) & s.of(by, PAWN)) | (knight_attacks(sq) & s.of(by, KNIGHT)) |
           (king_attacks(sq) & s.of(by, KING)) | (bishop_attacks(sq, s.occ) & diag) | (rook_attacks(sq, s.occ) & orth);
}

// Units of colour `by` attacking sq, fairy walks included.
Bitboard all_attackers(const Scan& s, const Board& board, Square sq, Color by) {
    Bitboard a = orthodox_attackers(s, sq, by);
    for (Bitboard f = s.fairy & s.color[by]; f;) {
        const Square from = pop_lsb(f);
        if (walk_attacks_square(board[from].walk, from, sq, s.occ)) a |= square_bb(from);
    }
    return a;
}

// Contract: the checkers in `others` (zero or one unit of colour x checking the king on k) are
// all explained as discovered checks by a move that emptied one square of `vacated`.
bool discovered_by(const Scan& s, Color x, Square k, Bitboard others, Bitboard vacated) {
    const Bitboard sliders = s.of(x, BISHOP) | s.of(x, ROOK) | s.of(x, QUEEN);
    for (Bitboard b = others; b;) {
        const Square sq = pop_lsb(b);
        if (!(sliders & square_bb(sq)) || !(between_bb(sq, k) & vacated)) return false;
    }
    return true;
}

// Whether a unit of walk w and colour x on `from` attacks k over the occupied squares `occ`.
bool attacks_from(Walk w, Color x, Square from, Square k, Bitboard occ) {
    const Bitboard kb = square_bb(k);
    switch (w) {
        case PAWN:
            return pawn_attacks(x, from) & kb;
        case KNIGHT:
            return knight_attacks(from) & kb;
        case BISHOP:
            return bishop_attacks(from, occ) & kb;
        case ROOK:
            return rook_attacks(from, occ) & kb;
        case QUEEN:
            return queen_attacks(from, occ) & kb;
        default:
            return false;
    }
}

// Contract: the unit of colour x on t (a checker) arrived there by x's last move, and that
// move also produced the checks `others` (at most one unit) by discovery. True when some
// orthodox move allows this: a plain move, a double step, a promotion (with or without
// capture), castling (rook) or an en passant capture (which empties two squares). Every
// departure square is empty now, and the squares a move passed over still are. The mover
// did not already attack the king from its departure square (x was to move: the king of
// the side not to move was not in check), counted with t occupied (by a unit it may have
// taken there).
bool direct_check_explained(const Scan& s, Color x, Square k, Square t, Bitboard others) {
    const Bitboard tb = square_bb(t);
    const Bitboard empty = ~s.occ;
    const int rr = relative_rank(x, rank_of(t));
    // One departure square per move: the checks in `others` need it on their line.
    auto departs = [&](Walk before, Bitboard departures, Bitboard also_vacated = 0) {
        for (Bitboard d = departures & empty; d;) {
            const Square from = pop_lsb(d);
            if (attacks_from(before, x, from, k, s.occ | square_bb(from) | also_vacated)) continue;
            if (discovered_by(s, x, k, others, square_bb(from) | also_vacated)) return true;
        }
        return false;
    };
    const Walk w = s.walk[PAWN] & tb     ? PAWN
                   : s.walk[KNIGHT] & tb ? KNIGHT
                   : s.walk[BISHOP] & tb ? BISHOP
                   : s.walk[ROOK] & tb   ? ROOK
                   : s.walk[QUEEN] & tb  ? QUEEN
                                         : NO_WALK;
    auto plain = [&](Bitboard departures) { return departs(w, departures); };
    if (w == PAWN) {
        if (rr < 2) return false;  // no pawn ever moves to its second rank
        const Bitboard behind = backward(x, tb);
        if (plain(behind | sideways(behind))) return true;
        if (rr == 3 && (behind & empty) && plain(backward(x, behind))) return true;
        // En passant: the victim stood behind t after a double step from in front of t.
        if (rr == 5 && (behind & empty) && (forward(x, tb) & empty) && departs(PAWN, sideways(behind), behind))
            return true;
        return false;
    }
    if (w == NO_WALK) return false;
    const Bitboard moves = w == KNIGHT   ? knight_attacks(t)
                           : w == BISHOP ? bishop_attacks(t, s.occ)
                           : w == ROOK   ? rook_attacks(t, s.occ)
                                         : queen_attacks(t, s.occ);
    if (plain(moves)) return true;
    if (rr == 7) {  // promotion from the seventh rank, straight or capturing
        const Bitboard behind = backward(x, tb);
        if (departs(PAWN, behind | sideways(behind))) return true;
    }
    if (w == ROOK) {  // castling: the king passed the rook; king and rook squares emptied
        const int base = x == WHITE ? 0 : 56;
        const Square king_from = Square(base + 4);
        const Bitboard king = s.of(x, KING);
        Bitboard vacated = 0;
        if (t == Square(base + 5) && (king & square_bb(Square(base + 6))))
            vacated = square_bb(king_from) | square_bb(Square(base + 7));
        if (t == Square(base + 3) && (king & square_bb(Square(base + 2))) && (empty & square_bb(Square(base + 1))))
            vacated = square_bb(king_from) | square_bb(Square(base));
        if (vacated && (vacated & empty) == vacated && discovered_by(s, x, k, others, vacated)) return true;
    }
    return false;
}

// Contract: `checkers` (one or two units of colour x, orthodox units only on the board) give
// check to the king on k, and x made the last move. Returns false only when no single
// orthodox move of x can have produced exactly these checks. With ep_square known, the last
// move is that double step.
bool checks_explained(const Scan& s, Color x, Square k, Bitboard checkers, Square ep_square) {
    const Bitboard empty = ~s.occ;
    if (ep_square != SQ_NONE) {
        const Bitboard ep = square_bb(ep_square);
        // The pawn's own check is direct; any other is discovered through its departure.
        return discovered_by(s, x, k, checkers & ~forward(x, ep), backward(x, ep));
    }
    // The moved unit checks directly; the other check (if any) is discovered.
    for (Bitboard b = checkers; b;) {
        const Square t = pop_lsb(b);
        if (direct_check_explained(s, x, k, t, checkers & ~square_bb(t))) return true;
    }
    // Only discovered checks: one emptied square opens one line ...
    if (!more_than_one(checkers)) return discovered_by(s, x, k, checkers, between_bb(lsb(checkers), k));
    // ... an en passant capture opens two (departure and victim squares).
    for (Bitboard p = s.of(x, PAWN) & relative_rank_bb(x, 5); p;) {
        const Bitboard tb = square_bb(pop_lsb(p));
        const Bitboard victim = backward(x, tb);
        if (!(victim & empty) || !(forward(x, tb) & empty)) continue;
        for (Bitboard d = sideways(victim) & empty; d;) {
            const Bitboard from = square_bb(pop_lsb(d));
            if (discovered_by(s, x, k, checkers, from | victim)) return true;
        }
    }
    return false;
}

// Rules on the checks of both kings (RULES.md section 2; sections 5 Alsatian).
LegalityVerdict check_rules(const Scan& s, const Board& board, Color stm, Square ep_square) {
    const Color x = ~stm;  // moved last
    const Square kx = lsb(s.of(x, KING));
    const Square ky = lsb(s.of(stm, KING));
    // Contract: after x's move, x's king is not attacked (by orthodox or fairy units).
    if (const Bitboard a = all_attackers(s, board, kx, stm))
        return illegal(color_name(x) + " king on " + square_name(kx) + " is in check from the " +
                       unit_on(board, lsb(a)) + " with " + color_name(stm) + " to move");
    // Contract (orthodox units only): every check on the side to move was made by x's last move.
    if (s.fairy) return {};
    const Bitboard checkers = orthodox_attackers(s, ky, x);
    if (!checkers) return {};
    if (popcount(checkers) > 2)
        return illegal(std::to_string(popcount(checkers)) + " units check the " + color_name(stm) +
                       " king; one move gives at most two checks");
    if (!checks_explained(s, x, ky, checkers, ep_square)) {
        Bitboard b = checkers;
        std::string who = unit_on(board, pop_lsb(b));
        if (b) who += " and the " + unit_on(board, lsb(b));
        return illegal("no last move of " + color_name(x) + " gives the check" + (more_than_one(checkers) ? "s" : "") +
                       " by the " + who);
    }
    return {};
}

struct HomeSet {
    Walk walk;
    Steps steps;
    Square home[2];  // white game-array squares; SQ_NONE when only one
};

constexpr HomeSet kHomes[] = {
    {KING, Steps::King, {SQ_E1, SQ_NONE}}, {QUEEN, Steps::King, {SQ_D1, SQ_NONE}},  {ROOK, Steps::Orth, {SQ_A1, SQ_H1}},
    {BISHOP, Steps::Diag, {SQ_C1, SQ_F1}}, {KNIGHT, Steps::Knight, {SQ_B1, SQ_G1}},
};

constexpr Square relative_square(Color c, Square s) { return c == WHITE ? s : Square(s ^ 56); }

// The game-array squares of unit p's walk and colour (none for fairy walks).
Bitboard game_array_squares(Piece p) {
    if (p.walk == PAWN) return relative_rank_bb(p.color, 1);
    Bitboard b = 0;
    for (const HomeSet& hs : kHomes)
        if (hs.walk == p.walk)
            for (Square home : hs.home)
                if (home != SQ_NONE) b |= square_bb(relative_square(p.color, home));
    return b;
}

// The eight king steps as shifts: N, S, E, W, NE, NW, SE, SW.
constexpr Bitboard shift(int d, Bitboard b) {
    switch (d) {
        case 0:
            return b << 8;
        case 1:
            return b >> 8;
        case 2:
            return (b << 1) & NOT_A;
        case 3:
            return (b >> 1) & NOT_H;
        case 4:
            return (b << 9) & NOT_A;
        case 5:
            return (b << 7) & NOT_H;
        case 6:
            return (b >> 7) & NOT_A;
        default:
            return (b >> 9) & NOT_H;
    }
}
constexpr int kOpposite[8] = {1, 0, 3, 2, 7, 6, 5, 4};

// Pairs of neighbouring squares that no unit ever moved between: a pawn on its third rank
// that can only have come there from one square (straight or by a capture; the other squares
// it can have come from are walls), a square of its second rank, stood there from the start
// and on its square since: one of the two was held all game. from[d]: the squares whose step
// in direction d (shift()) leads into such a pair's other square.
struct Seals {
    std::array<Bitboard, 8> from{};  // by[WHITE] | by[BLACK], kept: ORed at each flood step it cost 3%
    std::array<std::array<Bitboard, 8>, COLOR_NB> by{};  // `from` split by the sealing pawn's colour
    bool any = false;
};

Seals pawn_seals(const Scan& s, Bitboard walls) {
    Seals seals;
    for (Color c : {WHITE, BLACK})
        for (Bitboard b = s.of(c, PAWN) & relative_rank_bb(c, 2); b;) {
            const Bitboard e = square_bb(pop_lsb(b));
            const Bitboard behind = backward(c, e);
            const Bitboard from = (behind | sideways(behind)) & ~walls;
            if (!from || more_than_one(from)) continue;
            for (int d = 0; d < 8; ++d)
                if (shift(d, from) == e) {
                    seals.by[c][size_t(d)] |= from;
                    seals.by[c][size_t(kOpposite[d])] |= e;
                    seals.from[size_t(d)] |= from;
                    seals.from[size_t(kOpposite[d])] |= e;
                }
            seals.any = true;
        }
    return seals;
}

// reach() (every square, no early stop) that never steps between the squares of a sealed
// pair (a knight's jump never does).
Bitboard reach_sealed(Bitboard seed, Bitboard walls, Steps k, const Seals& seals) {
    if (!seals.any || k == Steps::Knight) return reach(seed, walls, k, ~Bitboard(0));
    const int first = k == Steps::Diag ? 4 : 0, last = k == Steps::Orth ? 4 : 8;
    Bitboard r = seed & ~walls;
    for (;;) {
        Bitboard n = r;
        for (int d = first; d < last; ++d) n |= shift(d, r & ~seals.from[size_t(d)]) & ~walls;
        if (n == r) break;
        r = n;
    }
    return r | (seed & walls);
}

// Full reach (see reach()) of home i of kHomes[set] for colour c past `walls`, never between
// the squares of a pair `seals` sealed (reach_sealed). Without seals cached per thread for the
// last wall set: consecutive calls (one solving line) mostly share walls.
Bitboard home_reach(Color c, int set, int i, Bitboard walls, const Seals& seals) {
    if (seals.any)
        return reach_sealed(square_bb(relative_square(c, kHomes[set].home[i])), walls, kHomes[set].steps, seals);
    struct Cache {
        Bitboard walls = ~Bitboard(0);  // no real wall set covers the whole board
        std::uint32_t known = 0;        // bit c * 10 + set * 2 + i
        Bitboard reach[COLOR_NB][5][2]{};
    };
    thread_local Cache cache;
    if (cache.walls != walls) {
        cache.walls = walls;
        cache.known = 0;
    }
    const std::uint32_t bit = 1u << (c * 10 + set * 2 + i);
    if (!(cache.known & bit)) {
        cache.known |= bit;
        const HomeSet& hs = kHomes[set];
        cache.reach[c][set][i] = reach(square_bb(relative_square(c, hs.home[i])), walls, hs.steps, ~Bitboard(0));
    }
    return cache.reach[c][set][i];
}

// Contract: the largest number of units of `units` that can be distinct original units, one
// per home, the unit of home i standing in reach[i]; units of `must` (not reachable by a
// promoted unit) must all be among them. -1 when `must` cannot be covered.
int max_originals(Bitboard units, const Bitboard reach_of[2], Bitboard must) {
    int best = -1;
    Bitboard rest0 = units & reach_of[0];
    for (Bitboard pick0 = 0;;) {  // home 0 takes nothing, then each candidate in turn
        Bitboard rest1 = units & reach_of[1];
        for (Bitboard pick1 = 0;;) {
            if (!(pick0 & pick1) && (must & ~(pick0 | pick1)) == 0) best = std::max(best, popcount(pick0 | pick1));
            if (!rest1) break;
            pick1 = square_bb(pop_lsb(rest1));
        }
        if (!rest0) break;
        pick0 = square_bb(pop_lsb(rest0));
    }
    return best;
}

// The steps of an orthodox walk other than the pawn's (kings' and queens' as one square in
// every direction: a rider's move into or out of a square passes a neighbour on its line).
constexpr Steps walk_steps(Walk w) {
    return w == ROOK ? Steps::Orth : w == BISHOP ? Steps::Diag : w == KNIGHT ? Steps::Knight : Steps::King;
}

// Contract: `walls` (squares whose unit stood there all game) grown to a fixed point by the
// K Q R B S standing on a game-array square of their colour and walk whose every step out
// is a wall: no unit can have left or entered that square, so its unit is the original
// one and never moved (the bishop on c1 behind pawns on b2 and d2).
Bitboard frozen_units(const Scan& s, Bitboard walls);

// The walls of the game: pawns on their own second rank, the kings and rooks of `rights`
// (castling_rights on CASTLING_SQUARES), the units marked frozen, and the units they shut in
// on their game-array squares (frozen_units).
Bitboard game_walls(const Scan& s, Bitboard rights, const LegalityMarks& marks) {
    return frozen_units(s, (s.of(WHITE, PAWN) & rank_bb(1)) | (s.of(BLACK, PAWN) & rank_bb(6)) | rights | marks.frozen);
}

Bitboard frozen_units(const Scan& s, Bitboard walls) {
    for (bool grown = true; grown;) {
        grown = false;
        for (Color c : {WHITE, BLACK})
            for (const HomeSet& hs : kHomes)
                for (Square home : hs.home) {
                    if (home == SQ_NONE) continue;
                    const Bitboard sq = square_bb(relative_square(c, home));
                    if ((walls & sq) || !(s.of(c, hs.walk) & sq) || (steps(hs.steps, sq) & ~walls)) continue;
                    walls |= sq;
                    grown = true;
                }
    }
    return walls;
}

// The squares from which a unit `p` can have arrived on `sq` by one move: its walk's steps
// (a rider passes the neighbour on its line); a pawn's step and captures from behind (on the
// ranks pawns stand on; a double step passes the square behind); a promotion's from behind
// on the last rank. Fairy walks: none worked out (callers skip them).
Bitboard arrival_squares(Piece p, Square sq) {
    const Bitboard b = square_bb(sq);
    const Bitboard from = backward(p.color, b);
    const Bitboard pawn_entries = (from | sideways(from)) & ~(rank_bb(0) | rank_bb(7));
    if (p.walk == PAWN) return pawn_entries;
    Bitboard e = steps(walk_steps(p.walk), b);
    if (p.walk != KING && (b & relative_rank_bb(p.color, 7))) e |= pawn_entries;  // promoted there
    return e;
}

// Contract: a unit V on a square S came there last through a square of
// arrival_squares(V, S) that is not a wall. Such a square e is shut to it when its unit
// came from S and has stood on e since (so S did not hold V then, and V came later): a pawn
// on e whose every way onto e that is not a wall starts on S (a step or double step from S
// or over it, or a capture from S), or a unit on e that cannot move off it (every step out
// is a wall) and that can only have come there by a promotion from S. Illegal when every
// such square is shut (c2 behind a pawn on c3 with b2 and d2 unmoved; a rook on b2 with
// unmoved a2 c2, a pawn on b3 from b2, and a black bishop on b1 promoted from b2).
LegalityVerdict blocked_arrivals(const Scan& s, const Board& board, Bitboard walls) {
    for (Bitboard occupied = s.occ & ~walls & ~s.fairy; occupied;) {
        const Square sq = pop_lsb(occupied);
        const Bitboard here = square_bb(sq);
        const Bitboard open = arrival_squares(board[sq], sq) & ~walls;
        if (!open) continue;  // never arrived: the reach rules decide
        bool shut = true;
        for (Bitboard b = open; b && shut;) {
            const Square e = pop_lsb(b);
            const Piece u = board[e];
            // A pawn never comes back to a square it left; a piece, unless it cannot move off.
            const bool stays = u.walk == PAWN || !(steps(walk_steps(u.walk), square_bb(e)) & ~walls);
            shut = u.walk != NO_WALK && u.walk <= PAWN && stays && !(arrival_squares(u, e) & ~walls & ~here);
        }
        if (shut)
            return illegal(
                "the " + unit_on(board, sq) + " cannot have come there: every square it could come from is " +
                "held by a unit that never moved, or by one that came from " + square_name(sq) + " and stayed");
    }
    return {};
}

// Contract: a run of c's first rank shut in by walls (first_rank_corridors) keeps the game
// array's kings, queens, rooks and bishops in their order, some taken, after at most one
// castling (corridor_order_kept): otherwise illegal (Qb1 Rc1 Kd1 behind unmoved a2..e2 with
// Bf1 shut in). Runs holding a unit of the other side or a fairy walk are left to the other
// rules.
LegalityVerdict corridor_order(const Board& board, Bitboard walls) {
    for (Color c : {WHITE, BLACK}) {
        const int rank = c == WHITE ? 0 : 7;
        std::array<Corridor, 4> runs;
        const int n = first_rank_corridors(c, walls, runs);
        std::array<Piece, 8> from{}, now{};
        for (int h = 0; h < 8; ++h) {
            from[size_t(h)] = make_piece(c, BACK_RANK_WALKS[h]);
            now[size_t(h)] = board[make_square(h, rank)];
        }
        for (int k = 0; k < n; ++k) {
            bool plain = true;
            for (int h = runs[size_t(k)].first; h < runs[size_t(k)].end; ++h) {
                const Piece p = now[size_t(h)];
                if (p.walk != NO_WALK && p.walk != KNIGHT && (p.color != c || p.walk > PAWN)) plain = false;
            }
            if (!plain || corridor_order_kept(from, now, runs[size_t(k)], 3)) continue;
            return illegal("the " + color_name(c) + " king, queen, rooks and bishops on the " +
                           std::string(c == WHITE ? "first" : "eighth") +
                           " rank, shut in by units that never moved, cannot have come into this order");
        }
    }
    return {};
}

// The fewest captures a pawn of colour c needs to go from its home square to each square
// (INF: never), by the steps, double steps and captures of a pawn past `walls`. `gates`:
// squares a straight step enters only when the pawn came onto their file by a capture (the
// home squares of the other side's pawns that never left their files, see straight_blockers).
// `entered[sq]` counts only the ways whose last arrival on the file of sq was a capture;
// `any[sq]` counts every way.
struct PawnCosts {
    std::array<int, SQUARE_NB> any;
    std::array<int, SQUARE_NB> entered;
};

// Contract: exact for the moves it allows (every move raises the rank, so one pass over the
// ranks settles each square), up to relative rank `top` (the squares beyond stay INF). No
// step or capture crosses a pair that a pawn of the other side sealed (pawn_seals; a pair
// sealed by a pawn of c is that pawn's own move).
PawnCosts pawn_costs(Color c, Square home, Bitboard walls, Bitboard gates, int top, const Seals& seals) {
    const std::array<Bitboard, 8>& sealed = seals.by[~c];
    std::array<int, SQUARE_NB> plain, entered;  // arrived on the file straight from home / by capture
    plain.fill(INF);
    entered.fill(INF);
    plain[size_t(home)] = 0;
    const int dir = c == WHITE ? 8 : -8;
    // shift() directions: straight ahead, and the captures towards file a and towards file h.
    const int ahead = c == WHITE ? 0 : 1, towards_a = c == WHITE ? 5 : 7, towards_h = c == WHITE ? 4 : 6;
    for (int r = 1; r < std::min(top, 7); ++r) {
        const int rank = c == WHITE ? r : 7 - r;
        for (int f = 0; f < 8; ++f) {
            const Square sq = make_square(f, rank);
            const int p = plain[size_t(sq)], e = entered[size_t(sq)];
            if (p >= INF && e >= INF) continue;
            const Square t = Square(int(sq) + dir);
            if (!(walls & square_bb(t)) && !(sealed[size_t(ahead)] & square_bb(sq))) {
                if (!(gates & square_bb(t))) plain[size_t(t)] = std::min(plain[size_t(t)], p);
                entered[size_t(t)] = std::min(entered[size_t(t)], e);
                if (r == 1 && p < INF && !(sealed[size_t(ahead)] & square_bb(t))) {
                    const Square t2 = Square(int(t) + dir);
                    if (!(walls & square_bb(t2)) && !(gates & square_bb(t2)))
                        plain[size_t(t2)] = std::min(plain[size_t(t2)], p);
                }
            }
            for (int df : {-1, 1}) {
                if (f + df < 0 || f + df > 7) continue;
                const Square x = Square(int(t) + df);
                if (!(walls & square_bb(x)) && !(sealed[size_t(df < 0 ? towards_a : towards_h)] & square_bb(sq)))
                    entered[size_t(x)] = std::min(entered[size_t(x)], std::min(p, e) + 1);
            }
        }
    }
    PawnCosts out;
    out.entered = entered;
    for (size_t i = 0; i < SQUARE_NB; ++i) out.any[i] = std::min(plain[i], entered[i]);
    return out;
}

// The pawns of colour o that never left their files: a pawn off its home rank (its home rank
// holds the walls) onto whose file no pawn of o can have come at its rank or below, since
// every square a capture onto one of those squares starts from is out of the reach of o's
// pawns (pawn_reach from o's free homes past the walls). Such a pawn came straight from the
// home square of its file, where it stood until it stepped up, and a pawn of the other side
// never passes it on the file: one that stands beyond it on the file, or steps onto its home
// square, or promotes on the file, came onto the file by a capture (pawn_costs' gates).
// A pawn of o on its third rank came from a square of its second rank next to or behind it
// that is no wall; where such pawns leave one of them a single such home, that home's pawn
// is that pawn (a second-rank square holds no pawn but its own), so it counts for no other
// pawn's way onto a file (f6 from f7 when e7 is d6's only home).
Bitboard straight_blockers(const Scan& s, Color o, Bitboard walls) {
    const Bitboard pawns = s.of(o, PAWN) & ~relative_rank_bb(o, 1);
    if (!pawns) return 0;
    const Bitboard free_homes = relative_rank_bb(o, 1) & ~s.of(o, PAWN);
    std::array<Square, 8> third{};
    std::array<Bitboard, 8> from{};
    int thirds = 0;
    for (Bitboard b = pawns & relative_rank_bb(o, 2); b;) {
        const Square w = pop_lsb(b);
        const Bitboard back = backward(o, square_bb(w));
        third[size_t(thirds)] = w;
        from[size_t(thirds++)] = (back | sideways(back)) & ~walls;
    }
    // The homes the other third-rank pawns have alone.
    auto held_by_others = [&](Square w) {
        Bitboard held = 0;
        for (int i = 0; i < thirds; ++i)
            if (third[size_t(i)] != w && popcount(from[size_t(i)]) == 1) held |= from[size_t(i)];
        return held;
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < thirds; ++i) {
            const Bitboard f = from[size_t(i)] & ~held_by_others(third[size_t(i)]);
            if (f && f != from[size_t(i)]) {
                from[size_t(i)] = f;
                changed = true;
            }
        }
    }
    const Bitboard reach_all = pawn_reach(o, free_homes, walls);
    Bitboard straight = 0;
    for (Bitboard b = pawns; b;) {
        const Square w = pop_lsb(b);
        const Bitboard held = held_by_others(w) & free_homes;
        const Bitboard reach = held ? pawn_reach(o, free_homes & ~held, walls) : reach_all;
        const Bitboard file = file_bb(file_of(w));
        // The squares a capture onto the file at w's rank or below starts from.
        Bitboard below = 0;
        for (int r = 1; r < relative_rank(o, rank_of(w)); ++r) below |= relative_rank_bb(o, r);
        if (!(sideways(file) & below & reach)) straight |= square_bb(w);
    }
    return straight;
}

// Contract: a lower bound on the original Q R B S of colour o that are gone and that no pawn
// of the other side c can have taken: their whole walk (from their game-array square past
// the walls and sealed pairs) misses `region`, the squares on which a pawn of c that counts
// took (callers: the forward cones of c's free homes up to the farthest rank its pawns and
// promoted units need, onto which a pawn of c can take from a square it can stand on). A
// game-array square shut in by walls whose unit is not on it lost that unit there (Bc8 behind
// unmoved b7 and d7); a pair of rooks that can never leave their first rank and b7, e7, h7
// when pawns stand on b6, e6, h6 from b7, e7, h7. Which originals are gone: any set that the
// units on the board leave (each present original on a distinct unit of its walk within its
// reach); the least count over those. With `marks`: a unit marked promoted is no original; a
// game-array square marked taken there (LegalityMarks::taken_home) lost its unit there to a
// piece: gone, no present unit, out of every pawn's reach.
// `away_bishops`: the colours (bit 0 light, bit 1 dark) of the game-array bishops whose walk
// misses the region.
int untakeable_by_pawns(const Scan& s, Color o, Bitboard walls, const Seals& seals, Bitboard region,
                        const LegalityMarks& marks, unsigned& away_bishops) {
    const Bitboard promoted = marks.all_promoted();
    int gone = 0;
    away_bishops = 0;
    for (int set = 1; set < 5; ++set) {  // not the king
        const HomeSet& hs = kHomes[set];
        const Bitboard units = s.of(o, hs.walk);
        Bitboard reach_of[2] = {0, 0};
        bool away[2] = {false, false};  // the unit of home i cannot be taken by a pawn
        for (int i = 0; i < 2; ++i) {
            if (hs.home[i] == SQ_NONE) continue;
            const bool taken_home = marks.taken_home & square_bb(relative_square(o, hs.home[i]));
            reach_of[i] = taken_home ? 0 : home_reach(o, set, i, walls, seals);
            away[i] = !(reach_of[i] & region);
            if (away[i] && hs.walk == BISHOP) away_bishops |= is_dark(relative_square(o, hs.home[i])) ? 2u : 1u;
            reach_of[i] &= ~promoted;  // a unit marked promoted is no original
        }
        if (!away[0] && !away[1]) continue;
        // The present originals that leave the fewest away units gone.
        int least = INF;
        for (unsigned present = 0; present < 4; ++present) {
            if ((present & 2) && hs.home[1] == SQ_NONE) continue;
            const bool fits = present == 0   ? true
                              : present == 3 ? max_originals(units, reach_of, 0) >= 2
                                             : (units & reach_of[present == 1 ? 0 : 1]) != 0;
            if (!fits) continue;
            int n = 0;
            for (int i = 0; i < 2; ++i)
                if (hs.home[i] != SQ_NONE && away[i] && !(present & (1u << i))) ++n;
            least = std::min(least, n);
        }
        gone += least;
    }
    return gone;
}

// Contract: a king came from its game-array square by king steps (castling passes the square
// between), never onto a wall (a unit stood there all game) nor onto a square a wall of the
// other side attacks (it stood still all game, so the king would have stepped into check):
// a pawn's capture squares, the neighbouring squares on a king's, queen's, rook's or bishop's
// lines (nothing can stand between), a knight's jumps; nor onto the square of a pawn of the
// other side that came there from its home square by a capture (attacked, then held, all
// game); nor between the squares of a sealed pair (pawn_seals). Illegal when no such way
// leads to the king's square (Kh2 behind unmoved e2 f2 g2 with Bf1 shut in: every way
// crosses d3 to h3).
LegalityVerdict king_ways(const Scan& s, const Board& board, Bitboard walls, const Seals& seals) {
    for (Color c : {WHITE, BLACK}) {
        const Square king = lsb(s.of(c, KING));
        const Square home = relative_square(c, SQ_E1);
        if (king == home) continue;
        Bitboard attacked = 0;
        for (Bitboard b = walls & s.color[~c]; b;) {
            const Square sq = pop_lsb(b);
            const Bitboard one = square_bb(sq);
            switch (board[sq].walk) {
                case PAWN:
                    attacked |= pawn_attacks(~c, sq);
                    break;
                case KNIGHT:
                    attacked |= knight_attacks(sq);
                    break;
                case KING:
                case QUEEN:
                    attacked |= king_attacks(sq);
                    break;
                case ROOK:
                    attacked |= steps(Steps::Orth, one);
                    break;
                case BISHOP:
                    attacked |= steps(Steps::Diag, one);
                    break;
                default:
                    break;  // fairy walls: not worked out
            }
        }
        // A pawn of the other side on its third rank whose file's second-rank square is a
        // wall came there by a capture from its own home square beside: that square attacked
        // its square until it stood there.
        const Bitboard third = s.of(~c, PAWN) & relative_rank_bb(~c, 2) & forward(~c, walls & relative_rank_bb(~c, 1));
        const Bitboard shut = walls | attacked | third;
        const Bitboard ways = seals.any ? reach_sealed(square_bb(home), shut & ~square_bb(home), Steps::King, seals)
                                        : reach(square_bb(home), shut & ~square_bb(home), Steps::King, s.of(c, KING));
        if (!(ways & s.of(c, KING)))
            return illegal("the " + unit_on(board, king) + " cannot have come there: every way from " +
                           square_name(home) + " crosses a unit that never moved or a square such a unit attacks");
    }
    return {};
}

// What material_rules works out for the pawn captures of one side, kept for the joint check
// of pawns of both sides, promoted units' pawns among them, that passed each other on a file
// (crossing_rule).
constexpr int kTouchedSlack = 4;  // extra captures per item way that vanished_files_rule weighs

struct CapturePlan {
    bool pending = false;  // filled, the verdict left to crossing_rule
    int items = 0;         // moved pawns (first `pawns`), then promoted units; at most 8
    int pawns = 0;
    std::array<Square, 8> square;                      // the moved pawns' squares
    std::array<std::array<int, 8>, 16> cost, entered;  // per item and home file (entered: pawns only); filled as used
    // Promoted units: per item, the file of its pawn's seventh-rank square before the
    // promotion (straight or by a capture) and home file, the captures of a way to a promotion
    // square through that file (`by_file_entered`: onto that file by a capture; slot 8: the
    // least over files where no pawn of the other side can be, crossing_rule's), the files with
    // such a way, and the file crossing_rule assumes (-1: any; 8: one of those).
    std::array<std::array<std::array<int, 8>, 9>, 8> by_file, by_file_entered;
    std::array<unsigned, 8> promotion_files{};
    std::array<int, 8> pick = {-1, -1, -1, -1, -1, -1, -1, -1};
    unsigned free_mask = 0;  // files whose home pawn has left
    int missing = 0;         // captures a pawn can have made
    int lost = 0;            // the other side's units missing: every capture of this side
    // Per item, the squares it ends on (a moved pawn's, a promoted unit's promotion squares).
    std::array<Bitboard, 8> targets{};
    // With `has_touched` (vanished_files_rule asked for them): touched[i][h][k], the files a
    // way of item i from the home of file h with cost[i][h] + k captures may touch (start or
    // land a capture on; none for a way without capture).
    bool has_touched = false;
    std::array<std::array<std::array<std::uint8_t, kTouchedSlack + 1>, 8>, 8> touched{};
    // The least total captures (-1: not worked out), and the colours (bit 0 light, bit 1 dark)
    // of the other side's game-array bishops that no pawn of this side can have taken.
    int least = -1;
    int greedy = -1;  // the greedy assignment's total where material_rules stopped at it (-1: not)
    unsigned away_bishops = 0;
    // The captures left when the units no pawn of this side can have taken, not even one that
    // is gone now, are set apart (lost less those; -1: not worked out): stuck_pawns_rule's.
    int missing_all = -1;
};

// Item i's captures per home file, the items of `forced` (bit i) counted as having come onto
// their files by a capture; a promoted unit with a picked file as promoted on that file.
const std::array<int, 8>& item_row(const CapturePlan& plan, unsigned forced, int i) {
    const bool entered = forced & (1u << i);
    if (i >= plan.pawns && plan.pick[size_t(i)] >= 0)
        return (entered ? plan.by_file_entered : plan.by_file)[size_t(i)][size_t(plan.pick[size_t(i)])];
    return entered ? plan.entered[size_t(i)] : plan.cost[size_t(i)];
}

// The least total captures of an assignment of the plan's items to distinct free homes, the
// items of `forced` (bit i) counted as having come onto their files by a capture. INF when
// no assignment exists.
int least_captures(const CapturePlan& plan, unsigned forced) {
    int dp[256];
    std::fill(std::begin(dp), std::end(dp), INF);
    dp[0] = 0;
    int best = INF;
    for (unsigned mask = 0;; mask = (mask - plan.free_mask) & plan.free_mask) {  // subsets, increasing
        if (dp[mask] < INF) {
            const int i = popcount(Bitboard(mask));
            if (i == plan.items) {
                best = std::min(best, dp[mask]);
            } else {
                const std::array<int, 8>& r = item_row(plan, forced, i);
                for (int f = 0; f < 8; ++f)
                    if ((plan.free_mask & ~mask & (1u << f)) && r[size_t(f)] < INF)
                        dp[mask | (1u << f)] = std::min(dp[mask | (1u << f)], dp[mask] + r[size_t(f)]);
            }
        }
        if (mask == plan.free_mask) break;
    }
    return best;
}

// The total captures of a greedy assignment (each item in turn takes its cheapest free home):
// at least least_captures(plan, forced), INF when it gets stuck.
int greedy_captures(const CapturePlan& plan, unsigned forced) {
    unsigned taken = 0;
    int total = 0;
    for (int i = 0; i < plan.items; ++i) {
        const std::array<int, 8>& r = item_row(plan, forced, i);
        int pick = -1;
        for (int f = 0; f < 8; ++f)
            if ((plan.free_mask & ~taken & (1u << f)) && r[size_t(f)] < INF &&
                (pick < 0 || r[size_t(f)] < r[size_t(pick)]))
                pick = f;
        if (pick < 0) return INF;
        taken |= 1u << pick;
        total += r[size_t(pick)];
    }
    return total;
}

// Whether, with the promoted units' files as picked, some choice of one pawn in each crossing
// pair (see crossing_rule) as having come onto its file by a capture leaves both sides within
// the captures they can have made. `pawn_file`: the file of the first crossing pair of two
// pawns on the board found (left as it is when none).
bool crossing_fits(const std::array<CapturePlan, COLOR_NB>& plans, int& pawn_file) {
    // Each item's file and rank: a promoted unit's pawn went down the file picked for it to its
    // seventh rank.
    const auto where = [&](Color c, int i, int& file, int& rank) {
        const CapturePlan& p = plans[c];
        if (i < p.pawns) {
            file = file_of(p.square[size_t(i)]);
            rank = rank_of(p.square[size_t(i)]);
            return true;
        }
        file = p.pick[size_t(i)];
        rank = c == WHITE ? 6 : 1;
        return file >= 0 && file < 8;
    };
    std::vector<std::pair<int, int>> pairs;  // (white item, black item)
    for (int i = 0; i < plans[WHITE].items; ++i)
        for (int j = 0; j < plans[BLACK].items; ++j) {
            int wf, wr, bf, br;
            if (!where(WHITE, i, wf, wr) || !where(BLACK, j, bf, br)) continue;
            if (wf == bf && br < wr && (plans[WHITE].free_mask & (1u << wf)) && (plans[BLACK].free_mask & (1u << bf))) {
                pairs.emplace_back(i, j);
                if (i < plans[WHITE].pawns && j < plans[BLACK].pawns && pawn_file < 0) pawn_file = wf;
            }
        }
    if (pairs.size() > 10) return true;  // many pairs: not worked out (sound)
    std::array<std::array<int, 256>, COLOR_NB> memo;
    for (auto& m : memo) m.fill(-1);
    auto least = [&](Color c, unsigned forced) {
        int& v = memo[c][forced];
        if (v < 0) v = least_captures(plans[c], forced);
        return v;
    };
    // Greedy assignments first (a cheap upper bound), then the least ones.
    for (int exact = 0; exact < 2; ++exact)
        for (unsigned choice = 0; choice < (1u << pairs.size()); ++choice) {
            unsigned forced[COLOR_NB] = {0, 0};
            for (size_t k = 0; k < pairs.size(); ++k)
                if (choice & (1u << k))
                    forced[BLACK] |= 1u << pairs[k].second;
                else
                    forced[WHITE] |= 1u << pairs[k].first;
            auto within = [&](Color c) {
                return (exact ? least(c, forced[c]) : greedy_captures(plans[c], forced[c])) <= plans[c].missing;
            };
            if (within(WHITE) && within(BLACK)) return true;
        }
    return false;
}

// Contract: a white pawn and a black pawn on one file, the black one nearer the first rank,
// passed each other, which two pawns on a file never do: one of them came onto that file by
// a capture after the other had gone by. So too the pawn of a promoted unit, which went up
// (down) a file to its seventh rank before it stepped or took onto the last rank (h2xg1=Q
// went down the h-file): it passed every pawn of the other side on that file, and the pawn of
// a promoted unit of the other side that went down it (JR-D-136 before e7xRf8=Q: White's
// h-pawn went up the h-file to h8=B, Black's down it to h2). Illegal when, for every such file
// of each promoted unit (the files where no item of the other side can stand taken together;
// at most 512 such picks, beyond which promoted units are left out: sound) and every choice of
// such a pawn in each crossing pair, one side's pawns then need more captures than it can have
// made.
LegalityVerdict crossing_rule(std::array<CapturePlan, COLOR_NB>& plans) {
    // The files where each side's items may stand (moved pawns' files, the files promoted
    // units' pawns went down); a pair needs the file's homes of both sides free (`shared`).
    std::array<unsigned, COLOR_NB> files{0, 0};
    for (Color c : {WHITE, BLACK}) {
        const CapturePlan& p = plans[c];
        for (int i = 0; i < p.items; ++i)
            files[c] |= i < p.pawns ? 1u << file_of(p.square[size_t(i)]) : p.promotion_files[size_t(i)];
    }
    const unsigned shared = plans[WHITE].free_mask & plans[BLACK].free_mask;
    // Per promoted unit, the files it may be picked on: those where it may meet an item of the
    // other side, and slot 8 for all the others at once (no pair there).
    std::vector<std::pair<Color, int>> promoted;
    std::vector<unsigned> choices;
    long picks = 1;
    for (Color c : {WHITE, BLACK})
        for (int i = plans[c].pawns; i < plans[c].items; ++i) {
            CapturePlan& p = plans[c];
            const unsigned all = p.promotion_files[size_t(i)];
            const unsigned meet = all & files[~c] & shared;
            unsigned choice = meet;
            if (all & ~meet) {
                choice |= 1u << 8;
                for (auto* rows : {&p.by_file, &p.by_file_entered}) {
                    std::array<int, 8>& rest = (*rows)[size_t(i)][8];
                    rest.fill(INF);
                    for (int f = 0; f < 8; ++f)
                        if (all & ~meet & (1u << f))
                            for (int h = 0; h < 8; ++h)
                                rest[size_t(h)] = std::min(rest[size_t(h)], (*rows)[size_t(i)][size_t(f)][size_t(h)]);
                }
            }
            promoted.emplace_back(c, i);
            choices.push_back(choice);
            picks *= popcount(Bitboard(choice));
        }
    const bool by_file = !promoted.empty() && picks > 0 && picks <= 512;
    if (!by_file) {  // promoted units left out: their picks stay -1 (any file), one round below
        promoted.clear();
        choices.clear();
    }
    // Every pick of a promotion file per promoted unit, as an odometer over their choices.
    for (size_t k = 0; k < promoted.size(); ++k)
        plans[promoted[k].first].pick[size_t(promoted[k].second)] = lsb(Bitboard(choices[k]));
    int pawn_file = -1;
    bool fits = false;
    for (;;) {
        if (crossing_fits(plans, pawn_file)) {
            fits = true;
            break;
        }
        size_t k = 0;
        for (; k < promoted.size(); ++k) {
            int& pick = plans[promoted[k].first].pick[size_t(promoted[k].second)];
            const unsigned above = choices[k] & ~((2u << pick) - 1);
            if (above) {
                pick = lsb(Bitboard(above));
                break;
            }
            pick = lsb(Bitboard(choices[k]));
        }
        if (k == promoted.size()) break;
    }
    for (auto [c, i] : promoted) plans[c].pick[size_t(i)] = -1;
    if (fits) return {};
    if (by_file || pawn_file < 0)
        return illegal(
            "pawns of the two sides passed each other on a file (promoted units' pawns among them, on the file they "
            "went down to their seventh rank), and neither side can have made the captures that needs");
    return illegal("the white and black pawns on the " + std::string(1, char('a' + pawn_file)) +
                   "-file passed each other, and neither side can have made the captures that needs");
}

// The lengths of the runs of adjacent files of `files` (bit f: file f), from file a.
std::vector<int> file_runs(unsigned files) {
    std::vector<int> runs;
    for (int f = 0; f < 8;) {
        if (!(files & (1u << f))) {
            ++f;
            continue;
        }
        int run = 0;
        for (; f < 8 && (files & (1u << f)); ++f) ++run;
        runs.push_back(run);
    }
    return runs;
}

// The extra captures that files of `uncovered` (bit f: file f) need when each needs a capture
// starting or landing on it and one capture touches at most two files side by side: per run of
// adjacent files, half its length rounded up.
int cover_captures(unsigned uncovered) {
    int total = 0;
    for (const int run : file_runs(uncovered)) total += (run + 1) / 2;
    return total;
}

// Per set of files (bit f: file f), the least captures of an assignment of the plan's items
// to distinct free homes whose ways touch exactly those files (plan.touched), each way with up
// to kTouchedSlack extra captures (more: as many touching every file), within plan.missing;
// INF where none does (vanished_files_rule). The moved pawns of `forced` (bit i) take only the
// ways that came onto their files by a capture (plan.entered), whose files are among those of
// the ways of as many captures.
std::array<int, 256> least_by_touched(const CapturePlan& plan, unsigned forced = 0) {
    std::array<int, 256> best;
    best.fill(INF);
    // dp[homes][touched]: the least captures of the first popcount(homes) items on those homes.
    std::vector<int> dp(256 * 256, INF);
    dp[0] = 0;
    for (unsigned mask = 0;; mask = (mask - plan.free_mask) & plan.free_mask) {
        const int i = popcount(Bitboard(mask));
        for (unsigned t = 0; t < 256; ++t) {
            const int here = dp[mask * 256 + t];
            if (here >= INF) continue;
            if (i == plan.items) {
                best[t] = std::min(best[t], here);
                continue;
            }
            const bool entered = i < plan.pawns && (forced & (1u << i));
            for (int f = 0; f < 8; ++f) {
                if (!(plan.free_mask & ~mask & (1u << f))) continue;
                const int least = (entered ? plan.entered : plan.cost)[size_t(i)][size_t(f)];
                if (least >= INF) continue;
                const int extra = least - plan.cost[size_t(i)][size_t(f)];  // the entered way's
                // A way with more than kTouchedSlack extra captures: as one with kTouchedSlack + 1
                // touching every file.
                for (int k = 0; k <= kTouchedSlack + 1 && here + least + k <= plan.missing; ++k) {
                    const int slack = extra + k;
                    const unsigned touched = slack <= kTouchedSlack && k <= kTouchedSlack
                                                 ? plan.touched[size_t(i)][size_t(f)][size_t(slack)]
                                                 : 0xffu;
                    int& next = dp[(mask | (1u << f)) * 256 + (t | touched)];
                    next = std::min(next, here + least + k);
                }
            }
        }
        if (mask == plan.free_mask) break;
    }
    return best;
}

// The squares on which a pawn of c, one that is gone now among them, can have taken: the
// forward cones of c's free homes past the walls, reached from a square a pawn of c can stand
// on there.
Bitboard pawn_capture_region(const Scan& s, Color c, Bitboard walls) {
    const Bitboard home_rank = relative_rank_bb(c, 1);
    const Bitboard all = pawn_reach(c, home_rank & ~s.of(c, PAWN), walls);
    return all & ~home_rank & (forward(c, sideways(all)) & ~walls);
}

// Contract: on a file where no pawn of either side stands, the white pawn of that file left
// it by a capture, was taken on it, or promoted on it after the black pawn of the file had
// left it by a capture or been taken on it: some pawn's capture started on the file or some
// capture landed on it. The captures of the items' ways (moved pawns, promoted units' pawns)
// touch the files they visit; the other files without pawns need captures beyond those, at
// least half of each run of adjacent files (cover_captures), and all captures together are the
// units both sides lost, less the original pieces that only a piece can have taken and only
// off those files (untakeable_by_pawns over the pawn capture region and the files: Bc8 lost
// at home behind b7 and d7 when the c-file holds a pawn), whose captures touch none of them.
// Moved pawns of both sides that passed each other on a file (crossing_rule's pairs, pawns on
// the board only) count as there: one of each pair came onto the file by a capture, for every
// choice of which (JR-D-014 before g2-g3: White's h-pawn went straight up to h6 or h7, so
// Black's pawns on h5 and h2 came from the g-file, and the a- and b-files need one capture
// more than both sides have). Illegal when no choice and assignment of both sides' items to
// homes (with up to kTouchedSlack extra captures a way) leaves room for them. `want`: set when
// the plans must first be filled again with the files their ways touch (the rule is worth
// working out).
LegalityVerdict vanished_files_rule(const Scan& s, const std::array<CapturePlan, COLOR_NB>& plans, Bitboard walls,
                                    const Seals& seals, const LegalityMarks& marks, bool& want) {
    unsigned empty = 0;
    Bitboard empty_squares = 0;
    for (int f = 0; f < 8; ++f)
        if (!((s.of(WHITE, PAWN) | s.of(BLACK, PAWN)) & file_bb(f))) {
            empty |= 1u << f;
            empty_squares |= file_bb(f);
        }
    if (!empty) return {};
    int room = plans[WHITE].lost + plans[BLACK].lost;
    for (Color o : {WHITE, BLACK}) {
        unsigned away = 0;
        room -= untakeable_by_pawns(s, o, walls, seals, pawn_capture_region(s, ~o, walls) | empty_squares, marks, away);
    }
    // The pairs of moved pawns on one file, the black one nearer the first rank (both homes of
    // the file free, as crossing_fits asks); beyond 6 pairs none is weighed (sound: fewer
    // choices to refute, and at most 64 of them to work out).
    std::vector<std::pair<int, int>> pairs;
    for (int i = 0; i < plans[WHITE].pawns; ++i)
        for (int j = 0; j < plans[BLACK].pawns; ++j) {
            const Square w = plans[WHITE].square[size_t(i)], b = plans[BLACK].square[size_t(j)];
            if (file_of(w) == file_of(b) && rank_of(b) < rank_of(w) &&
                (plans[WHITE].free_mask & plans[BLACK].free_mask & (1u << file_of(w))))
                pairs.emplace_back(i, j);
        }
    if (pairs.size() > 6) pairs.clear();
    // The choices (bit k: the black pawn of pair k came onto the file by a capture, else the
    // white one) within each side's captures, as each side's forced items, with their least
    // totals.
    struct Choice {
        unsigned forced[COLOR_NB];
        int least;
    };
    std::vector<Choice> choices;
    std::array<std::array<int, 256>, COLOR_NB> memo;
    for (auto& m : memo) m.fill(-1);
    int best = INF;
    for (unsigned choice = 0; choice < (1u << pairs.size()); ++choice) {
        Choice c{{0, 0}, 0};
        for (size_t k = 0; k < pairs.size(); ++k)
            if (choice & (1u << k))
                c.forced[BLACK] |= 1u << pairs[k].second;
            else
                c.forced[WHITE] |= 1u << pairs[k].first;
        bool within = true;
        for (Color x : {WHITE, BLACK}) {
            int& v = memo[x][c.forced[x]];
            if (v < 0) v = least_captures(plans[x], c.forced[x]);
            within = within && v <= plans[x].missing;
            c.least += v;
        }
        if (!within) continue;
        choices.push_back(c);
        best = std::min(best, c.least);
    }
    if (best >= INF || best + cover_captures(empty) <= room) return {};
    if (!plans[WHITE].has_touched || !plans[BLACK].has_touched) {
        want = true;
        return {};
    }
    std::array<std::vector<std::pair<unsigned, std::array<int, 256>>>, COLOR_NB> by_touched;
    const auto touched_of = [&](Color x, unsigned forced) -> const std::array<int, 256>& {
        for (const auto& [f, table] : by_touched[x])
            if (f == forced) return table;
        by_touched[x].emplace_back(forced, least_by_touched(plans[x], forced));
        return by_touched[x].back().second;
    };
    for (const Choice& c : choices) {
        // Each side's tables grow apart, so neither call moves the other's.
        const std::array<int, 256>& white = touched_of(WHITE, c.forced[WHITE]);
        const std::array<int, 256>& black = touched_of(BLACK, c.forced[BLACK]);
        for (unsigned w = 0; w < 256; ++w) {
            if (white[w] >= INF) continue;
            for (unsigned b = 0; b < 256; ++b)
                if (black[b] < INF && white[w] + black[b] + cover_captures(empty & ~(w | b)) <= room) return {};
        }
    }
    return illegal(
        "on files where no pawn stands some pawn's capture started or some capture landed, and the captures the "
        "pawns' ways need leave too few for the files they do not touch");
}

// The square colours (bit 0 light, bit 1 dark) on which colour o has no bishop: its
// game-array bishop of that colour is gone.
unsigned gone_bishop_colours(const Scan& s, Color o) {
    return (!(s.of(o, BISHOP) & ~DARK_SQUARES) ? 1u : 0u) | (!(s.of(o, BISHOP) & DARK_SQUARES) ? 2u : 0u);
}

// Contract: a pawn's captures keep the colour of its square, a single step changes it and the
// double step from home does not; a way whose captures are as many as the ranks it advances
// (no step at all) takes only on the colour of its home square. Whether some assignment of
// the plan's items to homes with exactly `total` captures (each way with its least: every
// capture of c's pawns is then one of those ways') leaves a capture on each colour of `need`
// (bit 0 light, bit 1 dark: the other side's game-array bishop of that colour is gone and was
// taken by a pawn): ways with steps count as taking on either colour. Only called when the
// plan's least total is `total` and c's pawns made that many captures.
bool bishop_colours_fit(const CapturePlan& plan, Color c, unsigned need, int total) {
    // dp[homes]: bit (captures * 12 + light + 2 * dark + 4 * min(free, 2)) for the first
    // popcount(homes) items, light/dark: a forced way took on that colour, free: the captures
    // of ways with steps.
    constexpr int kCaps = 17;
    std::vector<std::array<bool, kCaps * 12>> dp(256);
    dp[0][0] = true;
    for (unsigned mask = 0;; mask = (mask - plan.free_mask) & plan.free_mask) {
        const int i = popcount(Bitboard(mask));
        // The ranks item i's pawn advanced from its home.
        const int advance = i >= plan.items  ? 0
                            : i < plan.pawns ? relative_rank(c, rank_of(lsb(plan.targets[size_t(i)]))) - 1
                                             : 6;
        for (int state = 0; state < kCaps * 12; ++state) {
            if (!dp[mask][size_t(state)]) continue;
            const int caps = state / 12, light = state % 2, dark = (state / 2) % 2, free = (state % 12) / 4;
            if (i == plan.items) {
                if (caps == total && ((need & 1u) && !light) + ((need & 2u) && !dark) <= free) return true;
                continue;
            }
            for (int f = 0; f < 8; ++f) {
                if (!(plan.free_mask & ~mask & (1u << f))) continue;
                const int v = plan.cost[size_t(i)][size_t(f)];
                if (v >= INF || caps + v >= kCaps) continue;
                int l = light, d = dark, fr = free;
                if (v == advance) {
                    if (v > 0) (is_dark(make_square(f, c == WHITE ? 1 : 6)) ? d : l) = 1;
                } else {
                    fr = std::min(2, fr + v);
                }
                dp[mask | (1u << f)][size_t((caps + v) * 12 + l + 2 * d + 4 * fr)] = true;
            }
        }
        if (mask == plan.free_mask) break;
    }
    return false;
}

// How the gone game-array bishops of colour o are named (`need`: bit 0 the light-squared one,
// bit 1 the dark-squared one).
std::string gone_bishops(Color o, unsigned need) {
    return color_name(o) + " " +
           (need == 3u   ? std::string("bishops")
            : need == 2u ? "dark-squared bishop"
                         : "light-squared bishop") +
           " that " + (need == 3u ? "are" : "is") + " gone";
}

// Contract: the pawns of colour o (items of o's filled plan) that made no capture, by o's
// count: a pawn that made one came onto the file it stands on by a capture (off its own file
// and back, or from another), so its way is one of `entered`; when the least total with it so
// (least_captures forcing it) is more than the captures o's pawns can have made, it came
// straight from its file's home and never left the file, as straight_blockers' pawns (whose
// squares, `known`, are left out). JR-D-139: Black's h-pawn on h2, with Black's one capture
// to spare, never left the h-file, so White's h-pawn promoted only past it by two captures.
Bitboard counted_straight_blockers(const CapturePlan& po, Bitboard known) {
    if (!po.pending) return 0;
    Bitboard straight = 0;
    for (int i = 0; i < po.pawns; ++i) {
        const Square q = po.square[size_t(i)];
        if (!(known & square_bb(q)) && least_captures(po, 1u << i) > po.missing) straight |= square_bb(q);
    }
    return straight;
}

// Rules on where the units of colour c stand and how many promotions and captures they need.
// With `joint` (pawns of both sides passed each other on some file), or promoted units, `plan`
// is filled as well for the joint check of both sides (crossing_rule).
// Promotions the shut-promotion-square rule limits (analyze_orthodox_legality's last step): the
// promoted units of colour `c` and walk w that stand off `q` came onto q only from the squares
// `from[w]` (behind q, or beside it for a capture), for the walks in `walks`.
struct PromotionLimit {
    Color c = WHITE;
    Square q = SQ_NONE;
    std::array<Bitboard, WALK_NB> from{};
    unsigned walks = 0;
};
struct PromotionLimits {
    std::array<PromotionLimit, 4> limit{};
    int count = 0;
    // The squares from which c's unit of walk w, promoted on q and standing elsewhere, came
    // onto q, out of `ways` (every one when no limit holds).
    Bitboard allowed(Color c, Walk w, Square q, Bitboard ways) const {
        for (int i = 0; i < count; ++i) {
            const PromotionLimit& l = limit[size_t(i)];
            if (l.c == c && l.q == q && (l.walks >> w & 1u)) ways &= l.from[size_t(w)];
        }
        return ways;
    }
};

LegalityVerdict material_rules(const Scan& s, const Board& board, Color c, Bitboard walls, const Seals& seals,
                               bool joint, CapturePlan& plan, const LegalityMarks& marks, const PromotionLimits& limits,
                               bool want_touched = false, Bitboard counted_blockers = 0) {
    const Bitboard marked_promoted = marks.all_promoted();
    const Bitboard pawns = s.of(c, PAWN);
    const Bitboard home_rank = relative_rank_bb(c, 1);
    const Bitboard last_rank = relative_rank_bb(c, 7);
    const Bitboard free_homes = home_rank & ~pawns;  // homes whose pawn has left
    const Bitboard promotion_squares = pawn_reach(c, free_homes, walls) & last_rank;

    // Contract: each K Q R B S is an original unit (distinct per game-array square, walked
    // there from it past the walls) or a promoted one (walked from a promotion square: each
    // promoted unit counts with the promotion squares from which a unit of its walk, and for a
    // bishop of its square colour, can reach its square).
    struct Promotions {
        int count = 0;
        Bitboard squares = 0;
        Walk walk = NO_WALK;  // the promoted units' walk (NO_WALK: fairy units)
        Bitboard group = 0;   // the units the class may stand for
    };
    std::array<Promotions, 16> promotions{};  // per walk set (bishops by colour), or per unit
    int classes = 0;
    int promoted = 0;
    if (const int fairy = popcount(s.color[c] & s.fairy)) {  // fairy units are promoted units
        promotions[size_t(classes++)] = {fairy, promotion_squares};
        promoted += fairy;
    }
    for (int set = 0; set < 5; ++set) {
        const HomeSet& hs = kHomes[set];
        const Bitboard units = s.of(c, hs.walk);
        if (!units) continue;
        Bitboard reach_of[2] = {0, 0};
        for (int i = 0; i < 2; ++i)
            if (hs.home[i] != SQ_NONE && !(marks.taken_home & square_bb(relative_square(c, hs.home[i]))))
                reach_of[i] = home_reach(c, set, i, walls, seals);
        // A unit marked promoted is no original: as if no home reached its square.
        for (Bitboard& r : reach_of) r &= ~marked_promoted;
        int originals =
            !more_than_one(units) ? ((units & (reach_of[0] | reach_of[1])) ? 1 : 0) : max_originals(units, reach_of, 0);
        if (originals == popcount(units)) continue;
        const Bitboard promo_reach = hs.walk == KING ? 0
                                     : seals.any     ? reach_sealed(promotion_squares, walls, hs.steps, seals)
                                                     : reach(promotion_squares, walls, hs.steps, units);
        const Bitboard lost = units & ~promo_reach & ~(reach_of[0] | reach_of[1]);
        if (lost) return illegal(unit_on(board, lsb(lost)) + " cannot have reached its square");
        originals = max_originals(units, reach_of, units & ~promo_reach);
        if (originals < 0)
            return illegal(color_name(c) + " " + walk_name(hs.walk) + "s cannot all have reached their squares");
        const int here = popcount(units) - originals;
        promoted += here;
        // The promotion squares from which a unit of `group` can have come.
        auto squares_for = [&](Bitboard group) {
            Bitboard q = 0;
            for (Bitboard b = promotion_squares; b;) {
                const Square sq = pop_lsb(b);
                if ((seals.any ? reach_sealed(square_bb(sq), walls, hs.steps, seals)
                               : reach(square_bb(sq), walls, hs.steps, group)) &
                    group)
                    q |= square_bb(sq);
            }
            return q;
        };
        // n promoted units among `group`: those no home reaches were promoted each (on a
        // square from which it can have come), the rest among those a home reaches.
        const Bitboard from_home = reach_of[0] | reach_of[1];
        auto promote = [&](Bitboard group, int n) {
            for (Bitboard b = group & ~from_home; b && n > 0; --n) {
                const Bitboard unit = square_bb(pop_lsb(b));
                // Promoted where it stands (a mark): that square only.
                Bitboard squares = (marks.promoted_here & unit) ? promotion_squares & unit : squares_for(unit);
                if (marks.promoted_unit != SQ_NONE && unit == square_bb(marks.promoted_unit))
                    squares &= marks.promoted_on;
                promotions[size_t(classes++)] = {1, squares, hs.walk, unit};
            }
            if (n > 0) promotions[size_t(classes++)] = {n, squares_for(group & from_home), hs.walk, group & from_home};
        };
        int left = here;
        if (hs.walk == BISHOP) {
            // A bishop keeps its square colour: the units of a colour beyond what its home
            // there can give were promoted on a square of that colour.
            for (const Bitboard colour : {DARK_SQUARES, ~DARK_SQUARES}) {
                const Bitboard group = units & colour;
                const int own = (group & from_home) ? 1 : 0;
                const int n = std::min(left, std::max(0, popcount(group) - own));
                if (n == 0) continue;
                promote(group, n);
                left -= n;
            }
        }
        if (left > 0) promote(units, left);
    }
    // Contract: every promoted unit used up a pawn.
    if (promoted + popcount(pawns) > 8)
        return illegal(color_name(c) + " needs " + std::to_string(promoted) + " promoted units but only " +
                       std::to_string(8 - popcount(pawns)) + " pawns are missing");

    // Contract: pawns off their second rank and promoted units come from distinct homes whose
    // pawn can have walked there past the walls, each with the captures its way needs (at
    // least one a file change); there are no more captures than missing opposing units. A
    // pawn of c that stands beyond a pawn of the other side that never left its file
    // (straight_blockers, or `counted_blockers`: counted_straight_blockers), on that file, came
    // onto the file by a capture.
    const Bitboard moved = pawns & ~home_rank;
    const int items = popcount(moved) + promoted;
    if (items == 0) return {};
    const Bitboard blockers = straight_blockers(s, ~c, walls) | counted_blockers;
    Bitboard gates = 0, beyond = 0;
    for (Bitboard b = blockers; b;) {
        const Square w = pop_lsb(b);
        const Bitboard file = file_bb(file_of(w));
        gates |= file & relative_rank_bb(~c, 1);
        for (int r = relative_rank(c, rank_of(w)) + 1; r < 8; ++r) beyond |= file & relative_rank_bb(c, r);
    }
    // Per free home: where its forward cone meets no wall and no gate, a pawn reaches each
    // square of the cone with as many captures as files it changes (and no square beyond a
    // blocker: the gate of that file would be in the cone); else pawn_costs.
    // Only ranks up to the farthest moved pawn's count when nothing was promoted.
    const int top =
        promoted ? 7 : relative_rank(c, rank_of(c == WHITE ? Square(63 - std::countl_zero(moved)) : lsb(moved)));
    Bitboard upto = 0;
    for (int r = 1; r <= top; ++r) upto |= relative_rank_bb(c, r);
    Bitboard sealed = 0;  // squares of pairs the other side's pawns sealed
    for (const Bitboard b : seals.by[~c]) sealed |= b;
    std::array<PawnCosts, 8> costs;
    unsigned worked = 0, open = 0;
    for (int f = 0; f < 8; ++f)
        if ((free_homes & file_bb(f)) && !(kPawnCones[c][f] & upto & (walls | gates | sealed))) open |= 1u << f;
    // Fast path: every moved pawn straight up from its own file's home, nothing promoted.
    if (!promoted && !joint) {
        unsigned used = 0;
        bool straight = true;
        for (Bitboard m = moved; m && straight;) {
            const Square p = pop_lsb(m);
            const int f = file_of(p);
            straight = !(used & (1u << f)) && (open & (1u << f)) && !(beyond & square_bb(p));
            used |= 1u << f;
        }
        if (straight) return {};
    }
    // The captures the pawn of file f needs to stand on `sq` (`entered`: having come onto its
    // file by a capture), INF when it cannot.
    auto captures = [&](int f, Square sq, bool entered) {
        if (open & (1u << f)) {
            const int files = std::abs(file_of(sq) - f);
            // Coming onto its own file by a capture takes a way off it and back.
            if (!(kPawnCones[c][f] & square_bb(sq))) return INF;
            return !entered || files ? files : relative_rank(c, rank_of(sq)) >= 3 ? 2 : INF;
        }
        if (!(worked & (1u << f))) {
            worked |= 1u << f;
            costs[size_t(f)] = pawn_costs(c, make_square(f, c == WHITE ? 1 : 6), walls, gates, top, seals);
        }
        return entered ? costs[size_t(f)].entered[size_t(sq)] : costs[size_t(f)].any[size_t(sq)];
    };
    // cost[i][f]: item i (moved pawns, then one per promoted unit) from the home of file f.
    // Filled for crossing_rule where pawns of the two sides may have passed each other: on a
    // file (`joint`), or where promoted units' pawns went up their files.
    const bool fill = joint || promoted > 0;
    CapturePlan own;
    CapturePlan& P = fill ? plan : own;
    auto& cost = P.cost;
    unsigned free_mask = 0;
    for (int f = 0; f < 8; ++f)
        if (free_homes & file_bb(f)) free_mask |= 1u << f;
    int n = 0;
    for (Bitboard m = moved; m; ++n) {
        const Square p = pop_lsb(m);
        if (fill) P.square[size_t(n)] = p;
        P.targets[size_t(n)] = square_bb(p);
        for (int f = 0; f < 8; ++f) {
            cost[size_t(n)][size_t(f)] = (free_mask & (1u << f)) ? captures(f, p, beyond & square_bb(p)) : INF;
            if (fill) P.entered[size_t(n)][size_t(f)] = (free_mask & (1u << f)) ? captures(f, p, true) : INF;
        }
    }
    const int pawn_items = n;
    for (int k = 0; k < classes; ++k) {
        std::array<int, 8> row;
        row.fill(INF);
        // By the file the pawn went down before its promotion as well when filled (by_file
        // rows: the home's least over the squares of its seventh rank, not walls, from which it
        // stepped or took onto one of the class's promotion squares: at least the captures to
        // that square and those to the promotion square).
        std::array<std::array<int, 8>, 8> any_way, entered_way;
        unsigned files = 0;
        for (auto& r : any_way) r.fill(INF);
        for (auto& r : entered_way) r.fill(INF);
        for (int f = 0; f < 8; ++f) {
            if (!(free_mask & (1u << f))) continue;
            for (Bitboard q = promotions[size_t(k)].squares; q;) {
                const Square sq = pop_lsb(q);
                const int seventh = rank_of(sq) + (c == WHITE ? -1 : 1);
                // The squares of the seventh rank the promotion may have come from: a limit
                // (PromotionLimits) holds for the units standing off sq.
                const Bitboard behind = backward(c, square_bb(sq));
                const Bitboard ways = (behind | sideways(behind)) & ~walls;
                const Walk kw = promotions[size_t(k)].walk;
                const Bitboard allowed = kw == NO_WALK || (promotions[size_t(k)].group & square_bb(sq))
                                             ? ways
                                             : limits.allowed(c, kw, sq, ways);
                int x = captures(f, sq, false);
                if (allowed != ways) {
                    // Through an allowed square only: its captures, and one more for a capture.
                    int via = INF;
                    for (Bitboard a = allowed; a;) {
                        const Square pre = pop_lsb(a);
                        via = std::min(via, std::min(INF, captures(f, pre, false) + (file_of(pre) != file_of(sq))));
                    }
                    x = std::max(x, via);
                }
                row[size_t(f)] = std::min(row[size_t(f)], x);
                if (!fill || x >= INF) continue;
                for (int df = -1; df <= 1; ++df) {
                    const int pf = file_of(sq) + df;
                    if (pf < 0 || pf > 7) continue;
                    const Square pre = make_square(pf, seventh);
                    if (!(allowed & square_bb(pre))) continue;
                    const int step = df != 0 ? 1 : 0;
                    const int xa = std::max(x, std::min(INF, captures(f, pre, false) + step));
                    if (xa >= INF) continue;
                    int& a = any_way[size_t(pf)][size_t(f)];
                    int& e = entered_way[size_t(pf)][size_t(f)];
                    a = std::min(a, xa);
                    e = std::min(e, std::max(x, std::min(INF, captures(f, pre, true) + step)));
                    files |= 1u << pf;
                }
            }
        }
        for (int j = 0; j < promotions[size_t(k)].count; ++j) {
            if (fill) {
                std::copy(any_way.begin(), any_way.end(), P.by_file[size_t(n)].begin());
                std::copy(entered_way.begin(), entered_way.end(), P.by_file_entered[size_t(n)].begin());
                P.promotion_files[size_t(n)] = files;
            }
            P.targets[size_t(n)] = promotions[size_t(k)].squares;
            cost[size_t(n++)] = row;
        }
    }
    // The files each item's ways may touch (vanished_files_rule): a way of home f through q to
    // a target with at most v captures exists only if the captures to q and the captures from
    // q to a target (steps and captures past the walls only: more ways, more files) add up to
    // at most v; it touches every file it visits once it makes a capture.
    P.has_touched = fill && want_touched;
    if (P.has_touched)
        for (int i = 0; i < items; ++i) {
            // onward[q]: the fewest captures from q to one of the item's targets, filled from
            // the last rank back.
            std::array<int, SQUARE_NB> onward;
            onward.fill(INF);
            for (int r = 7; r >= 1; --r)
                for (int f = 0; f < 8; ++f) {
                    const Square q = make_square(f, c == WHITE ? r : 7 - r);
                    if (walls & square_bb(q)) continue;
                    if (P.targets[size_t(i)] & square_bb(q)) {
                        onward[size_t(q)] = 0;
                        continue;
                    }
                    if (r == 7) continue;
                    const int ahead = c == WHITE ? r + 1 : 6 - r;
                    int best = onward[size_t(make_square(f, ahead))];
                    for (int df : {-1, 1})
                        if (f + df >= 0 && f + df < 8)
                            best = std::min(best, onward[size_t(make_square(f + df, ahead))] + 1);
                    onward[size_t(q)] = best;
                }
            for (int f = 0; f < 8; ++f) {
                auto& row = P.touched[size_t(i)][size_t(f)];
                row.fill(0);
                const int least = cost[size_t(i)][size_t(f)];
                if (least >= INF) continue;
                for (Bitboard b = kPawnCones[c][f]; b;) {
                    const Square q = pop_lsb(b);
                    if (onward[size_t(q)] >= INF) continue;
                    const int to_q = captures(f, q, false);
                    if (to_q >= INF) continue;
                    for (int k = 0; k <= kTouchedSlack; ++k)
                        if (to_q + onward[size_t(q)] <= least + k && least + k > 0)
                            row[size_t(k)] |= std::uint8_t(1u << file_of(q));
                }
            }
        }
    const int lost = 16 - popcount(s.color[~c]);
    // The squares a counted pawn of c took on: in the cones of the free homes up to rank
    // `top` (the promotion rank when c promoted), reached from a square a pawn of c can
    // stand on there.
    const Bitboard cone = pawn_reach(c, free_homes, walls) & upto;
    const Bitboard region = cone & ~home_rank & (forward(c, sideways(cone)) & ~walls);
    unsigned away_bishops = 0;
    const int by_pieces = untakeable_by_pawns(s, ~c, walls, seals, region, marks, away_bishops);
    const int missing = lost - by_pieces;
    P.away_bishops = away_bishops;
    P.pending = fill;
    P.items = items;
    P.pawns = pawn_items;
    P.free_mask = free_mask;
    P.missing = missing;
    P.lost = lost;
    // Fast path: a greedy assignment within budget, with captures to spare (for the pieces
    // too: stuck_pawns_rule asks for the plans whose pawns have none).
    if (const int greedy = greedy_captures(P, 0); greedy < missing) {
        plan.greedy = greedy;
        plan.lost = lost;
        return {};
    }
    // The least total, by dynamic programming over the set of homes used.
    const int best = least_captures(P, 0);
    // Also on an unfilled plan: stuck_pawns_rule's caller then fills it.
    plan.least = best;
    plan.missing = missing;
    plan.lost = lost;
    if (best >= INF)
        return illegal(color_name(c) + " pawns and promoted units cannot come from distinct " + color_name(c) +
                       " pawns");
    if (best > missing)
        return illegal(color_name(c) + " pawns need " + std::to_string(best) + " captures but only " +
                       std::to_string(missing) + " " + color_name(~c) + " units are missing" +
                       (by_pieces ? " that a pawn can have taken (" + std::to_string(lost) + " lost, " +
                                        std::to_string(by_pieces) + " of them never where its pawns took)"
                                  : std::string()));
    // Every unit c took was taken by a pawn on an item's way: a game-array bishop of ~c that
    // is gone was taken on a square of its colour.
    if (best == lost) {
        const unsigned need = gone_bishop_colours(s, ~c);
        if (need && !bishop_colours_fit(P, c, need, lost))
            return illegal(color_name(c) + " pawns made every capture, none of them on a square where the " +
                           gone_bishops(~c, need) + " can have been taken");
    }
    return {};
}

// The units of ~c lost less those that no pawn of c, not even one that is gone now, can have
// taken (untakeable_by_pawns over the whole cones of c's free homes).
int missing_for_every_pawn(const Scan& s, Color c, Bitboard walls, const Seals& seals, const LegalityMarks& marks) {
    unsigned away = 0;
    return 16 - popcount(s.color[~c]) -
           untakeable_by_pawns(s, ~c, walls, seals, pawn_capture_region(s, c, walls), marks, away);
}

// Calls visit(home, used, total) for each assignment of the plan's items to distinct free
// homes (home[i]: item i's file; used: the homes taken) whose ways' least captures
// (plan.cost) add up to at most `budget`.
template <class Visit>
void for_each_assignment(const CapturePlan& plan, int budget, Visit&& visit) {
    std::array<int, 8> home{};
    const auto rec = [&](const auto& self, int i, unsigned used, int total) -> void {
        if (i == plan.items) {
            visit(home, used, total);
            return;
        }
        for (int f = 0; f < 8; ++f) {
            const int v = plan.cost[size_t(i)][size_t(f)];
            if (!(plan.free_mask & ~used & (1u << f)) || v >= INF || total + v > budget) continue;
            home[size_t(i)] = f;
            self(self, i + 1, used | (1u << f), total + v);
        }
    };
    rec(rec, 0, 0, 0);
}

// What the assignments of a side's plan within plan.missing captures say of its pawns:
// `landing`, the files on which one of its pawns may have taken (an item's way from home g to a
// target on file t with v captures, v - |t - g| even and v at most the ranks it advances,
// stays within (v - |t - g|) / 2 files of the files between, and lands on g only when it goes
// beyond; a pawn that is gone takes with the captures left over); `stay`, the files of its
// pawns that stood on them all game (on their second rank, or moved straight up from their own
// file's home with no capture in every assignment).
struct PawnFiles {
    bool any = false;  // some assignment exists
    unsigned landing = 0, stay = 0;
};

PawnFiles pawn_files(const Scan& s, const CapturePlan& plan, Color c) {
    PawnFiles out;
    unsigned straight = (1u << plan.pawns) - 1;  // pawn items that stay, in every assignment so far
    for_each_assignment(plan, plan.missing, [&](const std::array<int, 8>& home, unsigned used, int total) {
        out.any = true;
        const int slack = plan.missing - total;
        for (int i = 0; i < plan.items; ++i) {
            // At most one capture a rank advanced, and as many captures as files changed, or
            // two more for each file gone beyond and back.
            const int g = home[size_t(i)];
            const int most = std::min(plan.cost[size_t(i)][size_t(g)] + slack,
                                      i < plan.pawns ? relative_rank(c, rank_of(plan.square[size_t(i)])) - 1 : 6);
            if (i < plan.pawns && (file_of(plan.square[size_t(i)]) != g || most > 1)) straight &= ~(1u << i);
            unsigned targets = 0;
            for (Bitboard b = plan.targets[size_t(i)]; b;) targets |= 1u << file_of(pop_lsb(b));
            for (int t = 0; t < 8; ++t) {
                const int d = std::abs(t - g);
                const int v = most - ((most - d) & 1);
                if (!(targets & (1u << t)) || d > v || v == 0) continue;
                const int extra = (v - d) / 2;
                for (int x = std::max(0, std::min(g, t) - extra); x <= std::min(7, std::max(g, t) + extra); ++x)
                    if (x != g || v > d) out.landing |= 1u << x;
            }
        }
        for (int h = 0; h < 8 && slack > 0; ++h)
            if (plan.free_mask & ~used & (1u << h))
                for (int x = std::max(0, h - slack); x <= std::min(7, h + slack); ++x)
                    if (x != h || slack > 1) out.landing |= 1u << x;
    });
    for (Bitboard b = s.of(c, PAWN) & relative_rank_bb(c, 1); b;) out.stay |= 1u << file_of(pop_lsb(b));
    for (int i = 0; i < plan.pawns; ++i)
        if (straight & (1u << i)) out.stay |= 1u << file_of(plan.square[size_t(i)]);
    return out;
}

// The squares of file `file` on which a capture of a pawn way of colour c from the home square
// of file g to a square of `targets` with at most v captures can land (pawn geometry only, no
// walls: more ways, more squares). A capture from p onto q lies on such a way only if the fewest
// captures from home to p (the files between), plus one, plus the fewest from q to a target, is
// at most v, each part within the ranks it advances.
Bitboard capture_landings(Color c, int g, Bitboard targets, int v, int file) {
    Bitboard out = 0;
    for (int r = 2; r < 8; ++r) {
        const Square q = make_square(file, c == WHITE ? r : 7 - r);
        int onward = INF;  // the fewest captures from q to a target
        for (Bitboard b = targets; b;) {
            const Square t = pop_lsb(b);
            const int dr = relative_rank(c, rank_of(t)) - r, df = std::abs(file_of(t) - file);
            if (dr >= df) onward = std::min(onward, df);
        }
        if (onward >= INF) continue;
        for (int df : {-1, 1}) {
            const int pf = file + df;
            if (pf < 0 || pf > 7) continue;
            const int to_p = std::abs(pf - g);  // p on relative rank r - 1, r - 2 ranks from home
            if (r - 2 >= to_p && to_p + 1 + onward <= v) out |= square_bb(q);
        }
    }
    return out;
}

// Over o's assignments within its captures: `stuck`, the fewest homes left free (pawns gone)
// on files of `stuck_files` (INF: no assignment), and `always_gone`, the free homes no
// assignment uses.
struct GoneHomes {
    int stuck = INF;
    unsigned always_gone = 0;
};
GoneHomes gone_homes(const CapturePlan& po, unsigned stuck_files) {
    GoneHomes out;
    out.always_gone = po.free_mask;
    for_each_assignment(po, po.missing, [&](const std::array<int, 8>&, unsigned used, int) {
        out.always_gone &= ~used;
        out.stuck = std::min(out.stuck, popcount(Bitboard(po.free_mask & ~used & stuck_files)));
    });
    return out;
}

// Contract: when a side o's pawns need every capture they can have made (its plan's least
// total is its plan.missing_all: its pieces took only the units no pawn of o, not even one
// that is gone, can have taken), a pawn of o that is gone made no capture: it stayed on its
// file, and where a pawn of the other side c stood on that file all game it cannot have
// promoted either, so it was taken on its file; where no pawn of c can have taken on that
// file, a piece of c took it, one capture fewer for c's pawns (the fewest such pawns over o's
// assignments with that total). Worked out for both sides in turn until nothing changes:
// illegal when c's pawns then need more captures than are left them; and where c's pawns in
// turn need every capture left them, a game-array bishop of o that is gone and that a pawn of
// c can have taken was taken by one on a square of its colour (bishop_colours_fit); with
// captures so set apart, crossing_rule again.
// Then (a helper's rule of 2026-12-02, data/retro/hand-proofs/JR-D-130.md): where besides c's
// pawns made exactly the captures left them (each item exactly the least its way needs in the
// true assignment, c's gone pawns none, c's pieces only the units no pawn of c can take and the
// stuck pawns of o), a pawn of o gone in every assignment of o, on a file where a pawn of c stood
// all game (it neither promoted nor left the file) and some capture of c's pawns may land (so not
// one of the stuck pawns, whose count is at its least), was taken on its file by a pawn of c:
// illegal when no such capture can land there (capture_landings over c's assignments); when
// every one lands on o's second-rank square X of the file, o's pawn was taken there unmoved, and
// when every way that may land on X is an item standing on X, that pawn of c has stood there
// since: X was held all game, a wall for o's units (`held`, for material_rules of o again).
LegalityVerdict stuck_pawns_rule(const Scan& s, std::array<CapturePlan, COLOR_NB> plans,
                                 std::array<Bitboard, COLOR_NB>& held) {
    std::array<int, COLOR_NB> added{};
    bool exact_after[COLOR_NB] = {false, false};
    for (Color c : {WHITE, BLACK}) {
        CapturePlan& p = plans[c];
        int least = INF;
        for_each_assignment(p, p.missing,
                            [&](const std::array<int, 8>&, unsigned, int total) { least = std::min(least, total); });
        if (least >= INF) return {};  // material_rules' verdict
        p.least = least;
        // Exact with captures left to the pieces: the bishops' colours (material_rules looks
        // at them only where the pawns made every capture).
        exact_after[c] = least == p.missing && p.missing < p.lost;
    }
    for (bool again = true; again;) {
        again = false;
        for (Color o : {WHITE, BLACK}) {
            const Color c = ~o;
            CapturePlan& po = plans[o];
            CapturePlan& pc = plans[c];
            // o's pawns that are gone made no capture: its pieces took only units no pawn of o
            // can have taken.
            if (po.missing_all < 0 || po.least != po.missing_all - added[o]) continue;
            const PawnFiles theirs = pawn_files(s, pc, c);
            if (!theirs.any) return {};
            const int stuck = gone_homes(po, theirs.stay & ~theirs.landing).stuck;
            if (stuck >= INF || stuck <= added[c]) continue;
            pc.missing -= stuck - added[c];
            added[c] = stuck;
            again = true;
            if (pc.least > pc.missing)
                return illegal(color_name(c) + " pawns need " + std::to_string(pc.least) + " captures but only " +
                               std::to_string(pc.missing) + " are left them: " +
                               (stuck == 1 ? "a " + color_name(o) +
                                                 " pawn that made no capture cannot have promoted past a pawn on its "
                                                 "file and was taken there by a piece"
                                           : std::to_string(stuck) + " " + color_name(o) +
                                                 " pawns that made no capture cannot have promoted past pawns on their "
                                                 "files and were taken there by pieces"));
            exact_after[c] = pc.least == pc.missing;
        }
    }
    // The pawns of both sides that passed each other on their files, with the captures left
    // (JR-D-136 before e7xRf8=Q: Black's a-pawn was taken on its file by a piece, so White's h-pawn
    // went straight up the file past Black's, which then cannot have come down it to promote).
    if ((added[WHITE] > 0 || added[BLACK] > 0) && plans[WHITE].pending && plans[BLACK].pending)
        if (LegalityVerdict v = crossing_rule(plans); v.illegal) {
            v.reason += " (with the captures left when pawns that made no capture were taken on their files by pieces)";
            return v;
        }
    for (Color o : {WHITE, BLACK}) {
        const Color c = ~o;
        const CapturePlan& po = plans[o];
        const CapturePlan& pc = plans[c];
        if (!po.pending || !pc.pending || po.missing_all < 0 || po.least != po.missing_all - added[o]) continue;
        if (pc.least != pc.missing) continue;
        const PawnFiles theirs = pawn_files(s, pc, c);
        if (!theirs.any) continue;
        const GoneHomes gone = gone_homes(po, theirs.stay & ~theirs.landing);
        if (gone.stuck >= INF || gone.stuck < added[c]) continue;
        const unsigned files = gone.always_gone & theirs.stay & theirs.landing;
        for (int f = 0; f < 8; ++f) {
            if (!(files & (1u << f))) continue;
            const Square x = make_square(f, o == WHITE ? 1 : 6);
            Bitboard land = 0;
            bool stays = true;  // every way that may land on x is an item standing on x
            for_each_assignment(pc, pc.missing, [&](const std::array<int, 8>& home, unsigned, int) {
                for (int i = 0; i < pc.items; ++i) {
                    const int g = home[size_t(i)];
                    const Bitboard l = capture_landings(c, g, pc.targets[size_t(i)], pc.cost[size_t(i)][size_t(g)], f);
                    land |= l;
                    if ((l & square_bb(x)) && !(i < pc.pawns && pc.square[size_t(i)] == x)) stays = false;
                }
            });
            if (!land)
                return illegal(color_name(o) + " pawn of the " + std::string(1, char('a' + f)) +
                               "-file made no capture and was taken on its file by a " + color_name(c) +
                               " pawn, but no capture of the " + color_name(c) + " pawns can land there");
            if (land == square_bb(x) && stays) held[o] |= square_bb(x);
        }
    }
    for (Color c : {WHITE, BLACK}) {
        const CapturePlan& pc = plans[c];
        if (!exact_after[c] || pc.least != pc.missing) continue;
        const unsigned need = gone_bishop_colours(s, ~c) & ~pc.away_bishops;
        if (need && !bishop_colours_fit(pc, c, need, pc.missing))
            return illegal(color_name(c) +
                           " pawns made every capture but those of pawns that made none, none of them on a square "
                           "where the " +
                           gone_bishops(~c, need) + " can have been taken");
    }
    return {};
}

// Per number of captures k (bits 4k to 4k + 3), the colours (bit 0 light, bit 1 dark) that the
// captures of a pawn way land on: bit 4k + mask is set when some way has k captures landing
// on exactly the colours of mask.
using WayColours = std::uint32_t;

// The WayColours of c's pawn ways from the home square of file f to a square of `targets`,
// never onto a wall nor between the squares of a pair `sealed` seals (sealed[d]: the squares
// whose step in direction d is barred, as Seals::from), nor onto a target last from a square of
// `barred_last`.
WayColours way_colours(Color c, int f, Bitboard targets, Bitboard walls, const std::array<Bitboard, 8>& sealed,
                       Bitboard barred_last = 0) {
    std::array<WayColours, SQUARE_NB> at{};
    const Square home = make_square(f, c == WHITE ? 1 : 6);
    at[size_t(home)] = 1u;
    const int dir = c == WHITE ? 8 : -8;
    const int ahead = c == WHITE ? 0 : 1, towards_a = c == WHITE ? 5 : 7, towards_h = c == WHITE ? 4 : 6;
    WayColours out = (targets & square_bb(home)) ? 1u : 0u;
    for (int r = 1; r < 7; ++r) {
        const int rank = c == WHITE ? r : 7 - r;
        for (int ff = 0; ff < 8; ++ff) {
            const Square sq = make_square(ff, rank);
            const WayColours here = at[size_t(sq)];
            if (!here) continue;
            // The squares this one may not lead onto: the targets, when arriving from it is barred.
            const Bitboard shut = walls | ((barred_last & square_bb(sq)) ? targets : 0);
            const Square step = Square(int(sq) + dir);
            if (!(walls & square_bb(step)) && !(sealed[size_t(ahead)] & square_bb(sq))) {
                if (!(shut & square_bb(step))) at[size_t(step)] |= here;
                if (r == 1 && !(sealed[size_t(ahead)] & square_bb(step))) {
                    const Square two = Square(int(step) + dir);
                    if (!(shut & square_bb(two))) at[size_t(two)] |= here;
                }
            }
            for (int df : {-1, 1}) {
                if (ff + df < 0 || ff + df > 7) continue;
                const Square x = Square(int(step) + df);
                if ((shut & square_bb(x)) || (sealed[size_t(df < 0 ? towards_a : towards_h)] & square_bb(sq))) continue;
                const unsigned colour = is_dark(x) ? 2u : 1u;
                WayColours taken = 0;
                for (int k = 0; k < 7; ++k)
                    for (unsigned m = 0; m < 4; ++m)
                        if (here & (1u << (k * 4 + m))) taken |= 1u << ((k + 1) * 4 + (m | colour));
                at[size_t(x)] |= taken;
            }
        }
    }
    for (Bitboard b = targets; b;) out |= at[size_t(pop_lsb(b))];
    return out;
}

// The files some way of the plan's items may touch (plan.touched) in an assignment within
// `budget` captures, each way with up to the captures the assignment leaves; every file when
// they are not worked out or a way may have more extra captures than they cover.
unsigned touched_by_any_way(const CapturePlan& plan, int budget) {
    if (!plan.has_touched) return 0xffu;
    unsigned out = 0;
    for_each_assignment(plan, budget, [&](const std::array<int, 8>& home, unsigned, int total) {
        const int slack = budget - total;
        if (slack > kTouchedSlack) out = 0xffu;
        for (int i = 0; i < plan.items && out != 0xffu; ++i)
            for (int k = 0; k <= slack; ++k) out |= plan.touched[size_t(i)][size_t(home[size_t(i)])][size_t(k)];
    });
    return out;
}

// The fewest captures that serve every file of `files` and take `bishops` bishops, where a
// capture serves the file it starts on and, when it takes a pawn there, the file it lands on (so
// one taking a bishop serves one file at most): per run of adjacent files with j of the bishops
// taken by its captures, half of its length less j rounded up, plus the bishops.
int serving_captures(unsigned files, int bishops) {
    const std::vector<int> runs = file_runs(files);
    const int n = int(runs.size());
    int best = INF;
    const auto spread = [&](const auto& self, int r, int left, int sum) -> void {
        if (r == n) {
            best = std::min(best, sum);
            return;
        }
        for (int j = 0; j <= std::min(left, runs[size_t(r)]); ++j)
            self(self, r + 1, left - j, sum + (runs[size_t(r)] - j + 1) / 2);
    };
    spread(spread, 0, bishops, bishops);
    return best;
}

// Contract: a pawn of o on its third rank made one move, from the second-rank square of the
// home file an assignment gives it (straight or by a capture), and stood on one of the two
// squares all game: no pawn of the other side c ever moved between them (it would have taken
// o's pawn, or stood on its square). For each assignment of o's items within o's captures
// these pairs seal c's pawn ways, besides pawn_seals' (a suggestion and prototype of a helper
// this session, JR-D-148). A pawn of o whose way in the assignment has as many captures as
// files and ranks it went came along the diagonal, its last move from the square x behind it:
// a pawn of c standing on x did not come there last from o's pawn's square (the two would have
// swapped squares, each staying on its square after its last move). A pawn's capture lands on
// the colour its way has there (way_colours, square by square). A game-array bishop of o of a
// colour no bishop of o has on the board is gone, taken by c on a square of its colour: by a
// capture on a way of c's items or by one of c's other captures (c made exactly as many
// captures as o lost units). Other captures of c, besides: the units of o no pawn of c can
// have taken (plan.lost - plan.missing; a bishop among them is taken on its colour so); and
// where o's items' ways made every capture o's pawns can have made (o's gone pawns made none)
// with none to spare, on a file without pawns that no way of either side's items touches, o's
// pawn of that file stayed on it and was taken there or promoted past c's, which left it by a
// capture: each such file needs a capture of c that takes o's pawn on it or starts on it
// (serving_captures). Illegal when no assignment of o's items leaves c an assignment of its
// items and ways whose captures, plus those other captures, are at most that many (JR-D-004's
// Kc4xNb5). `plans`: filled.
LegalityVerdict sealed_colours_rule(const Scan& s, const std::array<CapturePlan, COLOR_NB>& plans, Bitboard walls,
                                    const Seals& seals, Color c) {
    const Color o = ~c;
    const CapturePlan& pc = plans[c];
    const CapturePlan& po = plans[o];
    const unsigned gone = gone_bishop_colours(s, o);
    if (!gone || !pc.pending || !po.pending || pc.items == 0) return {};
    const unsigned need = gone & ~pc.away_bishops;  // the others are among the units no pawn takes
    const int lost = pc.lost;
    const int least = least_captures(pc, 0);
    if (least >= INF) return {};
    // The files the other captures serve.
    unsigned files = 0;
    const int o_budget = po.missing_all >= 0 ? po.missing_all : po.lost;
    if (least_captures(po, 0) == o_budget) {
        for (int f = 0; f < 8; ++f)
            if (!((s.of(WHITE, PAWN) | s.of(BLACK, PAWN)) & file_bb(f))) files |= 1u << f;
        files &= ~touched_by_any_way(pc, pc.missing) & ~touched_by_any_way(po, o_budget);
    }
    std::array<int, 3> other{};  // per number of bishops not taken on the ways
    for (int b = 0; b < 3; ++b) other[size_t(b)] = (lost - pc.missing) + serving_captures(files, b);
    if (least + other[size_t(popcount(Bitboard(need)))] <= lost) return {};  // whatever the ways land on
    unsigned third = 0;                                                      // o's pawn items on their third rank
    for (int i = 0; i < po.pawns; ++i)
        if (relative_rank(o, rank_of(po.square[size_t(i)])) == 2) third |= 1u << i;
    // Per assignment of o's items: the homes of those pawns (8: not a third-rank pawn) and,
    // per pawn item of c, the squares from which its last arrival is barred.
    struct Key {
        std::array<int, 8> home;
        std::array<Bitboard, 8> barred;
        bool operator==(const Key&) const = default;
    };
    std::vector<Key> keys;
    for_each_assignment(po, po.missing, [&](const std::array<int, 8>& home, unsigned, int) {
        Key key;
        key.home.fill(8);
        key.barred.fill(0);
        for (int i = 0; i < po.pawns; ++i) {
            const Square y = po.square[size_t(i)];
            const int h = home[size_t(i)], df = file_of(y) - h;
            if (third & (1u << i)) key.home[size_t(i)] = h;
            const int ranks = relative_rank(o, rank_of(y)) - 1;
            if (df == 0 || std::abs(df) != ranks || po.cost[size_t(i)][size_t(h)] != ranks) continue;
            const Square x = Square(int(y) - (o == WHITE ? 8 : -8) - (df > 0 ? 1 : -1));
            for (int j = 0; j < pc.pawns; ++j)
                if (pc.square[size_t(j)] == x) key.barred[size_t(j)] |= square_bb(y);
        }
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    });
    if (keys.empty()) return {};  // material_rules' verdict
    for (const Key& key : keys) {
        std::array<Bitboard, 8> sealed = seals.by[o];
        for (int i = 0; i < po.pawns; ++i) {
            if (key.home[size_t(i)] >= 8) continue;
            const Square y = po.square[size_t(i)];
            const Square x = make_square(key.home[size_t(i)], o == WHITE ? 1 : 6);
            for (int d = 0; d < 8; ++d)
                if (shift(d, square_bb(x)) == square_bb(y)) {
                    sealed[size_t(d)] |= square_bb(x);
                    sealed[size_t(kOpposite[d])] |= square_bb(y);
                }
        }
        std::array<std::array<WayColours, 8>, 8> ways{};
        for (int i = 0; i < pc.items; ++i)
            for (int f = 0; f < 8; ++f)
                if (pc.free_mask & (1u << f))
                    ways[size_t(i)][size_t(f)] = way_colours(c, f, pc.targets[size_t(i)], walls, sealed,
                                                             i < pc.pawns ? key.barred[size_t(i)] : 0);
        // dp[homes used]: bit total * 4 + colours landed on, for the first items.
        std::vector<std::uint64_t> dp(256, 0);
        dp[0] = 1;
        for (unsigned mask = 0;; mask = (mask - pc.free_mask) & pc.free_mask) {
            const int i = popcount(Bitboard(mask));
            const std::uint64_t here = dp[mask];
            if (here && i == pc.items) {
                for (int total = 0; total <= lost && total < 16; ++total)
                    for (unsigned landed = 0; landed < 4; ++landed)
                        if (((here >> (total * 4 + landed)) & 1) &&
                            total + other[size_t(popcount(Bitboard(need & ~landed)))] <= lost)
                            return {};
            } else if (here) {
                for (int f = 0; f < 8; ++f) {
                    const WayColours w = ways[size_t(i)][size_t(f)];
                    if (!(pc.free_mask & ~mask & (1u << f)) || !w) continue;
                    std::uint64_t next = 0;
                    for (int total = 0; total <= lost && total < 16; ++total)
                        for (unsigned landed = 0; landed < 4; ++landed)
                            if ((here >> (total * 4 + landed)) & 1)
                                for (int k = 0; k < 8 && total + k <= lost && total + k < 16; ++k)
                                    for (unsigned m = 0; m < 4; ++m)
                                        if (w & (1u << (k * 4 + m)))
                                            next |= std::uint64_t(1) << ((total + k) * 4 + (landed | m));
                    dp[mask | (1u << f)] |= next;
                }
            }
            if (mask == pc.free_mask) break;
        }
    }
    return illegal(
        color_name(c) + " pawns cannot have taken the " + gone_bishops(o, gone) +
        ", each on a square of its colour: in every assignment of the " + color_name(o) +
        " pawns, those on their third rank or on a diagonal from their file came from squares that seal "
        "the ways that would" +
        (files ? ", beside the captures that files without pawns and the units no pawn can take need" : std::string()));
}

// The file of the only home (a second-rank square of c without a pawn of c on it) within
// reach of c's pawn on sq (as many files away as ranks it advanced), or -1 when none or
// several.
int only_home(const Scan& s, Color c, Square sq) {
    const int advance = relative_rank(c, rank_of(sq)) - 1;
    int home = -1;
    for (int f = std::max(0, file_of(sq) - advance); f <= std::min(7, file_of(sq) + advance); ++f) {
        if (s.of(c, PAWN) & square_bb(make_square(f, c == WHITE ? 1 : 6))) continue;
        if (home >= 0) return -1;
        home = f;
    }
    return home;
}

// Up to 16 units, each with the squares where it can have stood.
struct UnitSquares {
    std::array<Bitboard, 16> can{};
    int count = 0;
};

// The original units of colour o that are gone, each with the squares where it can have
// stood (its walk's reach from its game-array square past the walls and sealed pairs; either
// square's of a walk with two): none for a walk with as many units on the board as in the
// game array. Only meaningful when o promoted nothing; false when o has more units of a walk
// than the game array (a bishop counted per square colour).
bool gone_originals(const Scan& s, Color o, Bitboard walls, const Seals& seals, UnitSquares& out) {
    out.count = 0;
    for (int set = 1; set < 5; ++set) {
        const HomeSet& hs = kHomes[set];
        if (hs.walk == BISHOP) {
            for (int i = 0; i < 2; ++i) {
                const Bitboard colour = is_dark(relative_square(o, hs.home[i])) ? DARK_SQUARES : ~DARK_SQUARES;
                const int here = popcount(s.of(o, BISHOP) & colour);
                if (here > 1) return false;
                if (here == 0) out.can[size_t(out.count++)] = home_reach(o, set, i, walls, seals);
            }
            continue;
        }
        const int homes = hs.home[1] == SQ_NONE ? 1 : 2, here = popcount(s.of(o, hs.walk));
        if (here > homes) return false;
        Bitboard reach = 0;
        for (int i = 0; i < homes && here < homes; ++i) reach |= home_reach(o, set, i, walls, seals);
        for (int k = here; k < homes; ++k) out.can[size_t(out.count++)] = reach;
    }
    return true;
}

// Kuhn's augmenting path for square i of `need` over the units of `u` (owner: the square
// each unit serves, -1 none; seen: units tried in this round).
bool augment(const Square* need, int i, const UnitSquares& u, std::array<int, 16>& owner, unsigned& seen) {
    for (int k = 0; k < u.count; ++k) {
        if ((seen & (1u << k)) || !(u.can[size_t(k)] & square_bb(need[i]))) continue;
        seen |= 1u << k;
        if (owner[size_t(k)] < 0 || augment(need, owner[size_t(k)], u, owner, seen)) {
            owner[size_t(k)] = i;
            return true;
        }
    }
    return false;
}

// Whether the `n` squares of `need` can each be given a distinct unit of `u` that can have
// stood there.
bool match_all(const Square* need, int n, const UnitSquares& u) {
    if (n > u.count) return false;
    std::array<int, 16> owner;
    owner.fill(-1);
    for (int i = 0; i < n; ++i) {
        unsigned seen = 0;
        if (!augment(need, i, u, owner, seen)) return false;
    }
    return true;
}

// The assignments of forced_captures_rule: o's moved pawns to distinct free homes.
struct ForcedCaptures {
    const Square* need;
    int needed;
    UnitSquares originals;
    std::array<int, 8> promotion;  // per home file, the least captures to o's last rank
    std::array<Square, 8> moved;
    int moves = 0;
    unsigned free_homes = 0;
    int captures = 0;  // every capture o made
    Color o;
    long nodes = 0;
    bool any = false;
    bool promotion_only = false;  // promoted_nothing: only whether o may have promoted

    // Whether some assignment of moved pawns i onwards (homes used, total captures so far)
    // lets o have promoted, or its lost units take the squares of `need`.
    bool fits(int i, unsigned homes, int total) {
        if (++nodes > 20000) return true;  // too many to look at: no claim
        if (i == moves) {
            any = true;
            const int spare = captures - total;
            UnitSquares units = originals;
            for (int h = 0; h < 8; ++h) {
                if (!(free_homes & ~homes & (1u << h))) continue;
                if (promotion[size_t(h)] <= spare) return true;  // o may have promoted
                Bitboard band = 0;
                for (int f = std::max(0, h - spare); f <= std::min(7, h + spare); ++f) band |= file_bb(f);
                if (units.count == 16) return true;  // cannot happen (7 pieces, 8 pawns): no claim
                units.can[size_t(units.count++)] = band & ~relative_rank_bb(o, 0);
            }
            return !promotion_only && match_all(need, needed, units);
        }
        const Square sq = moved[size_t(i)];
        const int reach = std::min(relative_rank(o, rank_of(sq)) - 1, captures - total);
        for (int h = std::max(0, file_of(sq) - reach); h <= std::min(7, file_of(sq) + reach); ++h)
            if ((free_homes & ~homes & (1u << h)) && fits(i + 1, homes | (1u << h), total + std::abs(h - file_of(sq))))
                return true;
        return false;
    }
};

// bishops_taken_at_home on a scanned board.
Bitboard taken_at_home(const Scan& s) {
    Bitboard homes = 0;
    for (Color c : {WHITE, BLACK})
        for (const int f : {2, 5}) {
            const Square home = make_square(f, c == WHITE ? 0 : 7);
            const Bitboard front =
                square_bb(make_square(f - 1, c == WHITE ? 1 : 6)) | square_bb(make_square(f + 1, c == WHITE ? 1 : 6));
            if (!(s.of(c, BISHOP) & square_bb(home)) && (s.of(c, PAWN) & front) == front) homes |= square_bb(home);
        }
    return homes;
}

// Fills fc's free homes of o (no unmoved pawn of o there) and, per home, the least captures
// of a pawn from it to o's last rank, moving straight past the walls and never onto the home
// square of a pawn of c = ~o that came straight down its file (`straight_homes`), and taking
// only where a lost unit of c can have stood (c's gone original pieces' reach when c has all
// its pawns and no unit marked promoted, else anywhere); then o's moved pawns.
void promotion_ways(const Scan& s, Color o, Bitboard walls, const Seals& seals, Bitboard promoted,
                    Bitboard straight_homes, ForcedCaptures& fc) {
    const Color c = ~o;
    // Where c's lost units can have stood.
    Bitboard lost_squares = ~Bitboard(0);
    UnitSquares of_c;
    if (popcount(s.of(c, PAWN)) == 8 && !(promoted & s.color[c]) && gone_originals(s, c, walls, seals, of_c)) {
        lost_squares = 0;
        for (int k = 0; k < of_c.count; ++k) lost_squares |= of_c.can[size_t(k)];
    }
    for (int h = 0; h < 8; ++h) {
        if (s.of(o, PAWN) & square_bb(make_square(h, o == WHITE ? 1 : 6))) continue;  // never moved
        fc.free_homes |= 1u << h;
        // The least captures from home h to o's last rank, rank by rank.
        std::array<int, SQUARE_NB> dist;
        dist.fill(INF);
        dist[size_t(make_square(h, o == WHITE ? 1 : 6))] = 0;
        int least = INF;
        for (int r = 2; r < 8; ++r)
            for (int f = 0; f < 8; ++f) {
                const Square z = make_square(f, o == WHITE ? r : 7 - r),
                             from = make_square(f, o == WHITE ? r - 1 : 8 - r);
                if (walls & square_bb(z)) continue;
                int best = straight_homes & square_bb(z) ? INF : dist[size_t(from)];
                if (lost_squares & square_bb(z))
                    for (int df : {-1, 1})
                        if (f + df >= 0 && f + df < 8)
                            best = std::min(best, dist[size_t(make_square(f + df, rank_of(from)))] + 1);
                dist[size_t(z)] = best;
                if (r == 7) least = std::min(least, best);
            }
        fc.promotion[size_t(h)] = least;
    }
    for (Bitboard b = s.of(o, PAWN) & ~relative_rank_bb(o, 1); b;) fc.moved[size_t(fc.moves++)] = pop_lsb(b);
}

// Contract (forced pawn captures): a pawn of c on relative rank 2 + k (k >= 1) whose only
// possible home (only_home) is k files away made k captures, one on each square of the
// diagonal between, each taking a distinct unit of o = ~c that stood there and is gone now.
// Suppose o promoted nothing: its units on the board are originals and pawns, and its lost
// units are the original pieces gone (each only where its walk reaches from its game-array
// square past the walls: a bishop on its colour) and its pawns gone, each never more files
// from its home than the captures o made (the units c lost) leave beside the least captures
// of o's pawns on the board for some assignment of them to homes. o promoted nothing when in
// such an assignment no gone pawn can reach its last rank with the captures left, moving
// straight past the walls and never onto the home square of a pawn of c that came straight
// down its file (it stood there, or below, the whole time), and taking only where a lost
// unit of c can have stood (c's gone original pieces' reach when c has all its pawns, else
// anywhere). Illegal when in every assignment o promoted nothing and the capture squares
// cannot each get a distinct lost unit of o (JR-D-078's Bh2xNg1: Black's d7xc6 took on a
// light square, and White's lost units are the c1 bishop and the a- and h-pawns, which one
// capture of White's brings neither to the c-file nor to a promotion). Orthodox only.
LegalityVerdict forced_captures_rule(const Scan& s, Bitboard walls, const Seals& seals, const LegalityMarks& marks) {
    const Bitboard promoted = marks.all_promoted();
    for (Color c : {WHITE, BLACK}) {
        const Color o = ~c;
        // The squares c's pawns took on by their only ways, and the homes of those that came
        // straight.
        std::array<Square, 48> need;
        int needed = 0;
        Bitboard straight_homes = 0, takers = 0;
        unsigned used = 0;
        bool clash = false;
        for (Bitboard b = s.of(c, PAWN) & ~relative_rank_bb(c, 1); b;) {
            const Square sq = pop_lsb(b);
            const int home = only_home(s, c, sq);
            if (home < 0) continue;
            clash |= (used & (1u << home)) != 0;
            used |= 1u << home;
            const int k = relative_rank(c, rank_of(sq)) - 1, d = file_of(sq) - home;
            if (d == 0) straight_homes |= square_bb(make_square(home, c == WHITE ? 1 : 6));
            if (d == 0 || (d != k && d != -k)) continue;
            takers |= square_bb(sq);
            for (int i = 1; i <= k; ++i) {
                const Square q = make_square(home + (d > 0 ? i : -i), c == WHITE ? 1 + i : 6 - i);
                clash |= (walls & square_bb(q)) != 0;
                need[size_t(needed++)] = q;
            }
        }
        // No claim where the ways clash (other rules judge it) or o promoted visibly.
        if (!needed || clash || (promoted & s.color[o])) continue;
        // o's pawns made the captures o made but one per bishop of c taken at home by a piece.
        const int by_pieces = popcount(taken_at_home(s) & relative_rank_bb(c, 0));
        ForcedCaptures fc{need.data(), needed, {}, {}, {}, 0, 0, 16 - popcount(s.color[c]) - by_pieces, o};
        if (!gone_originals(s, o, walls, seals, fc.originals)) continue;
        promotion_ways(s, o, walls, seals, promoted, straight_homes, fc);
        if (fc.fits(0, 0, 0) || !fc.any) continue;
        std::string names;
        for (Bitboard b = takers; b;) {
            if (!names.empty()) names += ", ";
            names += square_name(pop_lsb(b));
        }
        return illegal(color_name(c) + " pawns on " + names + " took on every square of their only ways, and " +
                       color_name(o) + " lost too few units that can have stood there (" + color_name(o) +
                       " promoted nothing: no pawn of it that is gone can have reached its last rank)");
    }
    return {};
}

// The analysis, with the limits on promotions that analyze_orthodox_legality's last step
// tries (none at first).
LegalityVerdict analyze_with(const Board& board, Color side_to_move, Bitboard castling_rights, Square ep_square,
                             const LegalityMarks& marks, const PromotionLimits& limits) {
    init_bitboards();
    const Scan s = scan_board(board);

    // Kings: exactly one per side (kingless problems are not orthodox).
    for (Color c : {WHITE, BLACK}) {
        const int kings = popcount(s.of(c, KING));
        if (kings != 1) return illegal(color_name(c) + " has " + std::to_string(kings) + " kings");
    }
    // Pawns never stand on the first or last rank.
    if (const Bitboard p = s.walk[PAWN] & (rank_bb(0) | rank_bb(7))) return illegal(unit_on(board, lsb(p)));
    // Material: 16 units and 8 pawns per side at most.
    for (Color c : {WHITE, BLACK}) {
        if (popcount(s.color[c]) > 16)
            return illegal(color_name(c) + " has " + std::to_string(popcount(s.color[c])) + " units");
        if (popcount(s.of(c, PAWN)) > 8)
            return illegal(color_name(c) + " has " + std::to_string(popcount(s.of(c, PAWN))) + " pawns");
    }
    // Castling rights: the king or rook never moved, so it stands on its game-array square.
    const Bitboard rights = castling_rights & CASTLING_SQUARES;
    for (Bitboard r = rights; r;) {
        const Square sq = pop_lsb(r);
        const Color c = rank_of(sq) == 0 ? WHITE : BLACK;
        const Walk w = file_of(sq) == 4 ? KING : ROOK;
        if (board[sq].walk != w || board[sq].color != c)
            return illegal("castling right on " + square_name(sq) + " without the " + color_name(c) + " " +
                           walk_name(w) + " there");
    }
    // En passant: the side that moved last just made a double step over ep_square.
    if (is_ok(ep_square)) {
        const Color x = ~side_to_move;
        const Bitboard ep = square_bb(ep_square);
        if (!(ep & relative_rank_bb(x, 2)) || (ep & s.occ) || (backward(x, ep) & s.occ) ||
            !(forward(x, ep) & s.of(x, PAWN)))
            return illegal("en passant square " + square_name(ep_square) + " does not follow a double step of a " +
                           color_name(x) + " pawn");
    }
    // Marks: a frozen unit stands where it stood in the game array; a promoted one is a piece
    // that a pawn can have become, and has moved.
    for (Bitboard b = marks.frozen; b;) {
        const Square sq = pop_lsb(b);
        const Piece p = board[sq];
        if (p.walk == NO_WALK) return illegal("nothing stands on " + square_name(sq) + ", marked frozen");
        if (!(game_array_squares(p) & square_bb(sq)))
            return illegal("the " + unit_on(board, sq) + " is marked frozen but " + square_name(sq) +
                           " is no game-array square of a " + color_name(p.color) + " " + walk_name(p.walk));
    }
    for (Bitboard b = marks.all_promoted(); b;) {
        const Square sq = pop_lsb(b);
        const Piece p = board[sq];
        if (p.walk == NO_WALK) return illegal("nothing stands on " + square_name(sq) + ", marked promoted");
        if ((marks.promoted_here & square_bb(sq)) && !(relative_rank_bb(p.color, 7) & square_bb(sq)))
            return illegal("the " + unit_on(board, sq) + " is marked promoted on its square, which is not on the " +
                           color_name(p.color) + " side's last rank");
        if (p.walk == KING || p.walk == PAWN || (marks.frozen & square_bb(sq)))
            return illegal("the " + unit_on(board, sq) + " is marked promoted, which a " +
                           (p.walk == KING   ? "king"
                            : p.walk == PAWN ? "pawn"
                                             : "unit marked frozen") +
                           " cannot be");
    }
    if (LegalityVerdict v = check_rules(s, board, side_to_move, is_ok(ep_square) ? ep_square : SQ_NONE); v.illegal)
        return v;
    // Units that stood still all game: pawns on their own second rank, castling kings/rooks,
    // and the units they shut in on their game-array squares.
    const Bitboard walls = game_walls(s, rights, marks);
    const Seals seals = pawn_seals(s, walls);
    // Pawns of the two sides that passed each other on a file: their captures are judged
    // together (crossing_rule).
    // Only pairs where both may have come straight from their file's home count: a pawn
    // whose file's home still holds its pawn came from another file.
    bool joint = false;
    for (Bitboard b = s.of(BLACK, PAWN); b && !joint;) {
        const Square q = pop_lsb(b);
        const Bitboard file = file_bb(file_of(q));
        joint = !(s.of(WHITE, PAWN) & file & rank_bb(1)) && !(s.of(BLACK, PAWN) & file & rank_bb(6)) &&
                (s.of(WHITE, PAWN) & file & ~((Bitboard(2) << q) - 1));
    }
    std::array<CapturePlan, COLOR_NB> plans;
    // counted[o]: o's pawns that made no capture by o's count (counted_straight_blockers).
    std::array<Bitboard, COLOR_NB> counted{0, 0};
    const auto material = [&](Color c, bool joint_c, bool want_touched = false) {
        return material_rules(s, board, c, walls, seals, joint_c, plans[c], marks, limits, want_touched, counted[~c]);
    };
    for (Color c : {WHITE, BLACK})
        if (LegalityVerdict v = material(c, joint); v.illegal) return v;
    // A side with promoted units filled its plan: the other side's is filled too when one of
    // its moved pawns stands on a file where one of them may have been promoted.
    for (Color c : {WHITE, BLACK}) {
        const CapturePlan& other = plans[~c];
        if (!other.pending || plans[c].pending) continue;
        unsigned promotion_files = 0, pawn_files = 0;
        for (int i = other.pawns; i < other.items; ++i) promotion_files |= other.promotion_files[size_t(i)];
        for (Bitboard b = s.of(c, PAWN) & ~relative_rank_bb(c, 1); b;) pawn_files |= 1u << file_of(pop_lsb(b));
        if (promotion_files & pawn_files)
            if (LegalityVerdict v = material(c, true); v.illegal) return v;
    }
    if (plans[WHITE].pending && plans[BLACK].pending) {
        // Pawns of o that never left their files by o's count bar the other side's ways past
        // them: its plan again with them.
        for (Color o : {WHITE, BLACK}) {
            counted[o] = counted_straight_blockers(plans[o], straight_blockers(s, o, walls));
            if (!counted[o]) continue;
            if (LegalityVerdict v = material(~o, true); v.illegal) {
                std::string squares;
                for (Bitboard b = counted[o]; b;) squares += (squares.empty() ? "" : ", ") + square_name(pop_lsb(b));
                v.reason += " (the " + color_name(o) + " pawns on " + squares + " made no capture, by " +
                            color_name(o) +
                            "'s count: where pawns of the two sides passed each other on their files, " +
                            color_name(~o) + "'s came onto the file by a capture)";
                return v;
            }
        }
        if (LegalityVerdict v = crossing_rule(plans); v.illegal) return v;
        bool want = false;
        if (LegalityVerdict v = vanished_files_rule(s, plans, walls, seals, marks, want); v.illegal) return v;
        if (want) {
            for (Color c : {WHITE, BLACK})
                if (LegalityVerdict v = material(c, true, true); v.illegal) return v;
            if (LegalityVerdict v = vanished_files_rule(s, plans, walls, seals, marks, want); v.illegal) return v;
        }
    }
    // A side whose pawns need every capture they can have made: its pawns that are gone made
    // none (stuck_pawns_rule), on both sides' plans, filled for it.
    if ((plans[WHITE].least >= 0 && plans[WHITE].least == plans[WHITE].missing) ||
        (plans[BLACK].least >= 0 && plans[BLACK].least == plans[BLACK].missing)) {
        for (Color c : {WHITE, BLACK})
            if (!plans[c].pending)
                if (LegalityVerdict v = material(c, true); v.illegal) return v;
        if (plans[WHITE].pending && plans[BLACK].pending) {
            for (Color c : {WHITE, BLACK}) plans[c].missing_all = missing_for_every_pawn(s, c, walls, seals, marks);
            std::array<Bitboard, COLOR_NB> held{};
            if (LegalityVerdict v = stuck_pawns_rule(s, plans, held); v.illegal) return v;
            // A square held all game by o's pawn, then by the pawn of the other side that took it
            // there: a wall for o's units.
            for (Color o : {WHITE, BLACK}) {
                if (!held[o]) continue;
                const Bitboard walls2 = frozen_units(s, walls | held[o]);
                const Seals seals2 = pawn_seals(s, walls2);
                CapturePlan fresh;
                if (LegalityVerdict v = material_rules(s, board, o, walls2, seals2, true, fresh, marks, limits);
                    v.illegal)
                    return illegal(v.reason + " (" + square_name(lsb(held[o])) + " held all game: a " + color_name(o) +
                                   " pawn that made no capture was taken there, unmoved, by the " + color_name(~o) +
                                   " pawn standing there)");
            }
        }
    }
    // A side o without a bishop of some colour, the other side's pawns with fewer captures to
    // spare than such colours, the units no pawn can take and, where o's pawns have none to
    // spare, the files without pawns need: pawns of o seal ways (sealed_colours_rule).
    unsigned empty = 0;
    for (int f = 0; f < 8; ++f)
        if (!((s.of(WHITE, PAWN) | s.of(BLACK, PAWN)) & file_bb(f))) empty |= 1u << f;
    for (Color c : {WHITE, BLACK}) {
        const int need = popcount(Bitboard(gone_bishop_colours(s, ~c)));
        const CapturePlan& pc = plans[c];
        const int least = pc.least >= 0 ? pc.least : pc.greedy;  // the greedy total bounds the least
        const bool files = empty && plans[~c].least >= 0 && plans[~c].least == plans[~c].missing;
        const int untakeable = pc.least >= 0 ? pc.lost - pc.missing : 0;
        if (need == 0 || least < 0 || pc.lost - least >= need + untakeable + (files ? cover_captures(empty) : 0))
            continue;
        for (Color x : {WHITE, BLACK})
            if (!plans[x].pending || (files && !plans[x].has_touched))
                if (LegalityVerdict v = material(x, true, files); v.illegal) return v;
        if (LegalityVerdict v = sealed_colours_rule(s, plans, walls, seals, c); v.illegal) return v;
    }
    if (LegalityVerdict v = forced_captures_rule(s, walls, seals, marks); v.illegal) return v;
    if (LegalityVerdict v = blocked_arrivals(s, board, walls); v.illegal) return v;
    if (LegalityVerdict v = king_ways(s, board, walls, seals); v.illegal) return v;
    return corridor_order(board, walls);
}

// Contract (a shut promotion square): let q be a square of c's last rank holding a piece V of
// c (no pawn, king or wall), and E the squares (no walls) from which V's walk moves onto q,
// each holding a pawn of the other side o all of whose ways onto it that are no wall start on
// o's second rank (so it stood there from the start, stepped or took once onto its square of
// E, and stayed). Suppose a pawn of c promoted on q from r (behind q, or beside it: a
// capture) into a unit U of walk w that left q, first passing x (a step of w out of q, no
// wall). At the promotion r held c's pawn, and when U left, x held nothing U could not pass
// or take: so each o pawn of E whose ways start only on r or x stood on its square of E by
// then. V, not on q from the promotion until U left (a promotion takes no unit of its own
// side), came last onto q later: if for every such x every pawn of E starts only on r or x,
// not by a move of its walk, so by a promotion (V is promoted there:
// LegalityMarks::promoted_here). Hence either V is promoted there, or c's units of walk w
// that stand elsewhere were not promoted on q from such an r. Up to 4 such squares, the
// first found; `out` gets each square's limits (walks with a shut r only).
int shut_promotion_squares(const Scan& s, const Board& board, Bitboard walls, std::array<PromotionLimit, 4>& out) {
    int n = 0;
    for (Color c : {WHITE, BLACK}) {
        const Color o = ~c;
        for (Bitboard b = s.color[c] & relative_rank_bb(c, 7) & ~s.walk[PAWN] & ~s.walk[KING] & ~s.fairy & ~walls;
             b && n < 4;) {
            const Square q = pop_lsb(b);
            const Bitboard entries = steps(walk_steps(board[q].walk), square_bb(q)) & ~walls;
            std::array<Bitboard, 8> starts{};
            int m = 0;
            bool shut = entries != 0;
            for (Bitboard a = entries; a && shut;) {
                const Square e = pop_lsb(a);
                const Piece u = board[e];
                const Bitboard from = u.walk == PAWN && u.color == o ? arrival_squares(u, e) & ~walls : 0;
                shut = from && !(from & ~relative_rank_bb(o, 1)) && m < 8;
                if (shut) starts[size_t(m++)] = from;
            }
            if (!shut) continue;
            PromotionLimit limit{c, q, {}, 0};
            const Bitboard behind = backward(c, square_bb(q));
            const Bitboard ways = (behind | sideways(behind)) & ~walls;
            for (Walk w : {QUEEN, ROOK, BISHOP, KNIGHT}) {
                const Bitboard exits = steps(walk_steps(w), square_bb(q)) & ~walls;
                Bitboard allowed = 0;
                for (Bitboard r = ways; r;) {
                    const Square rs = pop_lsb(r);
                    bool closed = true;
                    for (Bitboard x = exits; x && closed;) {
                        const Bitboard pair = square_bb(rs) | square_bb(pop_lsb(x));
                        for (int i = 0; i < m && closed; ++i) closed = !(starts[size_t(i)] & ~pair);
                    }
                    if (!closed) allowed |= square_bb(rs);
                }
                limit.from[size_t(w)] = allowed;
                if (allowed != ways) limit.walks |= 1u << w;
            }
            if (limit.walks) out[size_t(n++)] = limit;
        }
    }
    return n;
}

}  // namespace

Bitboard bishops_taken_at_home(const Board& board) { return taken_at_home(scan_board(board)); }

bool promoted_nothing(const Board& board, Color o) {
    init_bitboards();
    const Scan s = scan_board(board);
    const Color c = ~o;
    // A unit of o beyond the game array's came by promotion.
    if (popcount(s.of(o, QUEEN)) > 1 || popcount(s.of(o, ROOK)) > 2 || popcount(s.of(o, KNIGHT)) > 2 ||
        popcount(s.of(o, BISHOP) & DARK_SQUARES) > 1 || popcount(s.of(o, BISHOP) & ~DARK_SQUARES) > 1 ||
        popcount(s.of(o, PAWN)) > 8 || popcount(s.color[c]) > 16)
        return false;
    const Bitboard walls = game_walls(s, 0, {});
    const Seals seals = pawn_seals(s, walls);
    Bitboard straight_homes = 0;
    for (Bitboard b = s.of(c, PAWN) & ~relative_rank_bb(c, 1); b;) {
        const Square sq = pop_lsb(b);
        if (only_home(s, c, sq) == file_of(sq))
            straight_homes |= square_bb(make_square(file_of(sq), c == WHITE ? 1 : 6));
    }
    // o's pawns made the captures o made but those of its pieces: at least one per bishop of
    // c taken at home (bishops_taken_at_home).
    const int by_pieces = popcount(taken_at_home(s) & relative_rank_bb(c, 0));
    ForcedCaptures fc{nullptr, 0, {}, {}, {}, 0, 0, 16 - popcount(s.color[c]) - by_pieces, o};
    fc.promotion_only = true;
    promotion_ways(s, o, walls, seals, 0, straight_homes, fc);
    return !fc.fits(0, 0, 0) && fc.any;
}

// The analysis, then, where it finds the position legal and some squares are shut promotion
// squares (shut_promotion_squares) whose piece is not marked promoted there, again on every
// choice per square (the piece marked promoted there, or the promotions onto it limited):
// illegal when every choice is.
LegalityVerdict analyze_orthodox_legality(const Board& board, Color side_to_move, Bitboard castling_rights,
                                          Square ep_square, const LegalityMarks& marks) {
    const PromotionLimits none;
    LegalityVerdict first = analyze_with(board, side_to_move, castling_rights, ep_square, marks, none);
    if (first.illegal) return first;
    const Scan s = scan_board(board);
    const Bitboard walls = game_walls(s, castling_rights & CASTLING_SQUARES, marks);
    std::array<PromotionLimit, 4> found;
    const int all = shut_promotion_squares(s, board, walls, found);
    int n = 0;
    for (int i = 0; i < all; ++i)
        if (!(marks.promoted_here & square_bb(found[size_t(i)].q))) found[size_t(n++)] = found[size_t(i)];
    if (n == 0) return first;
    std::string reason;
    for (unsigned choice = 0; choice < (1u << n); ++choice) {
        LegalityMarks m = marks;
        PromotionLimits limits;
        for (int i = 0; i < n; ++i) {
            if (choice >> i & 1u)
                m.promoted_here |= square_bb(found[size_t(i)].q);
            else
                limits.limit[size_t(limits.count++)] = found[size_t(i)];
        }
        const LegalityVerdict v = analyze_with(board, side_to_move, castling_rights, ep_square, m, limits);
        if (!v.illegal) return first;
        if (choice == 0) reason = v.reason;
    }
    std::string where;
    for (int i = 0; i < n; ++i) {
        if (i) where += '/';
        where += square_name(found[size_t(i)].q);
    }
    return illegal(reason + " (whatever promotions on " + where +
                   " left, the piece there would have come by promotion too, which is no better)");
}

int first_rank_corridors(Color c, Bitboard walls, std::array<Corridor, 4>& out) {
    const int rank = c == WHITE ? 0 : 7, front = c == WHITE ? 1 : 6;
    int n = 0;
    for (int f = 0; f < 8;) {
        if (walls & square_bb(make_square(f, rank))) {
            ++f;
            continue;
        }
        const int first = f;
        bool shut = true;
        for (; f < 8 && !(walls & square_bb(make_square(f, rank))); ++f)
            for (int g = std::max(0, f - 1); g <= std::min(7, f + 1); ++g)
                shut = shut && (walls & square_bb(make_square(g, front)));
        if (shut) out[size_t(n++)] = {first, f};
    }
    return n;
}

bool corridor_order_kept(const std::array<Piece, 8>& from, const std::array<Piece, 8>& to, Corridor run,
                         unsigned sides) {
    // Up to eight units, left to right, as colour and walk (no allocation).
    struct Units {
        std::array<int, 8> unit{};
        int size = 0;
        void push(Piece p) {
            if (!p.empty() && p.walk != KNIGHT) unit[size_t(size++)] = int(p.color) * 16 + int(p.walk);
        }
    };
    // Whether `kept` is `all` with some of its units left out.
    const auto left_out = [](const Units& kept, const Units& all) {
        int i = 0;
        for (int j = 0; j < all.size && i < kept.size; ++j)
            if (all.unit[size_t(j)] == kept.unit[size_t(i)]) ++i;
        return i == kept.size;
    };
    Units was, wanted;
    for (int h = run.first; h < run.end; ++h) {
        was.push(from[size_t(h)]);
        wanted.push(to[size_t(h)]);
    }
    if (left_out(wanted, was)) return true;
    for (int side = 0; side < 2; ++side) {
        const int rook_file = side == 0 ? 0 : 7, low = std::min(rook_file, 4), high = std::max(rook_file, 4);
        if (!(sides >> side & 1) || run.first > low || run.end <= high) continue;  // not both in the run
        Units swapped;
        for (int h = run.first; h < run.end; ++h) {
            if (h > low && h < high) continue;  // taken before the castling
            swapped.push(from[size_t(h == 4 ? rook_file : h == rook_file ? 4 : h)]);
        }
        if (left_out(wanted, swapped)) return true;
    }
    return false;
}

}  // namespace rebirth
