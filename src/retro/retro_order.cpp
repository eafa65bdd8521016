#include "rebirth/retro_order.h"

#include "rebirth/bitboard.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace rebirth {

namespace {

using Mask = std::uint64_t;  // a set of units, by index

// One way a unit came to its square: it never moved, or its last move requires the units of
// `after` to have come to their squares later.
enum Kind : std::uint8_t { MOVE, NEVER, PROMOTION };

struct Option {
    bool never = false;
    Mask after = 0;
    Mask moved = 0;   // units that must have moved (a king's source they attack)
    Mask before = 0;  // units that came before (order_facts' questions only)
    Kind kind = MOVE;
    Bitboard path = 0;  // the source and the squares passed (not the unit's square)
    Square from = SQ_NONE;
};

struct Unit {
    Square sq = SQ_NONE;
    Piece p;
    std::vector<Option> options;
};

constexpr std::array<std::array<int, 2>, 8> kKingSteps = {
    {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}};
constexpr std::array<std::array<int, 2>, 8> kKnightJumps = {
    {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}};

// The square df files and dr ranks from s, SQ_NONE off the board.
Square offset(Square s, int df, int dr) {
    const int f = file_of(s) + df, r = rank_of(s) + dr;
    return f < 0 || f > 7 || r < 0 || r > 7 ? SQ_NONE : make_square(f, r);
}

bool game_array_square(Piece p, Square s) {
    const int home = p.color == WHITE ? 0 : 7;
    if (p.walk == PAWN) return rank_of(s) == (p.color == WHITE ? 1 : 6);
    return rank_of(s) == home && BACK_RANK_WALKS[file_of(s)] == p.walk;
}

// Whether a queen, rook or bishop (w) moves along the king step (df, dr).
bool along(Walk w, int df, int dr) { return !(w == ROOK && df && dr) && !(w == BISHOP && !(df && dr)); }

// Whether a unit of walk w and colour c on `from` attacks `to` so that nothing can step
// between (a pawn's capture, a knight's jump, a king's step, a rider next to it on its line).
bool contact_attack(Walk w, Color c, Square from, Square to) {
    const int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);
    const bool next = std::abs(df) <= 1 && std::abs(dr) <= 1 && (df || dr);
    switch (w) {
        case PAWN:
            return std::abs(df) == 1 && dr == (c == WHITE ? 1 : -1);
        case KNIGHT:
            return std::abs(df * dr) == 2;
        case KING:
        case QUEEN:
            return next;
        case ROOK:
            return next && (df == 0 || dr == 0);
        case BISHOP:
            return next && df != 0 && dr != 0;
        default:
            return false;
    }
}

// The ways the unit u (index i among `units`, `at`: the unit index on each square or -1)
// came to its square. `rights`: squares of kings and rooks keeping a castling right.
std::vector<Option> options_of(const std::vector<Unit>& units, const std::array<int, SQUARE_NB>& at, int i,
                               Bitboard rights) {
    const Unit& u = units[size_t(i)];
    const Color c = u.p.color;
    std::vector<Option> out;
    if (game_array_square(u.p, u.sq)) out.push_back({.never = true, .kind = NEVER});
    if ((u.p.walk == PAWN && game_array_square(u.p, u.sq)) || (rights & square_bb(u.sq))) return out;
    int enemy_king = -1;
    for (size_t k = 0; k < units.size(); ++k)
        if (units[k].p.walk == KING && units[k].p.color != c) enemy_king = int(k);
    const auto bit = [&](Square s) { return s != SQ_NONE && at[s] >= 0 ? Mask(1) << at[s] : Mask(0); };
    // A last move from `from` (the unit then of walk w there), over the squares `between`.
    const auto add = [&](Square from, Walk w, Mask between, Kind kind = MOVE, Bitboard passed = 0) {
        Option o{.after = bit(from) | between, .kind = kind, .path = square_bb(from) | passed, .from = from};
        if (enemy_king >= 0 && contact_attack(w, c, from, units[size_t(enemy_king)].sq))
            o.after |= Mask(1) << enemy_king;
        // A king on `from` was not attacked there by a unit that never moved.
        if (w == KING)
            for (size_t k = 0; k < units.size(); ++k)
                if (units[k].p.color != c && contact_attack(units[k].p.walk, ~c, units[k].sq, from))
                    o.moved |= Mask(1) << k;
        out.push_back(o);
    };
    const int fwd = c == WHITE ? 1 : -1;
    const int rel = c == WHITE ? rank_of(u.sq) : 7 - rank_of(u.sq);
    if (u.p.walk == PAWN) {
        if (rel < 2) return out;  // on its first rank: none (the static analysis says illegal)
        add(offset(u.sq, 0, -fwd), PAWN, 0);
        if (rel == 3)
            add(offset(u.sq, 0, -2 * fwd), PAWN, bit(offset(u.sq, 0, -fwd)), MOVE, square_bb(offset(u.sq, 0, -fwd)));
        for (int df : {-1, 1})
            if (const Square from = offset(u.sq, df, -fwd); from != SQ_NONE) add(from, PAWN, 0);
        return out;
    }
    if (rel == 7 && u.p.walk != KING)  // a promotion
        for (int df : {-1, 0, 1})
            if (const Square from = offset(u.sq, df, -fwd); from != SQ_NONE) add(from, PAWN, 0, PROMOTION);
    if (u.p.walk == KING || u.p.walk == KNIGHT) {
        for (const auto& [df, dr] : u.p.walk == KING ? kKingSteps : kKnightJumps)
            if (const Square from = offset(u.sq, df, dr); from != SQ_NONE) add(from, u.p.walk, 0);
        // Castling, from e1 (e8) with the rook from h1 (a1, passing b1): the units on those squares
        // came later (not on f1 or d1, where the castling rook may still stand, moved at the same
        // time).
        const int home = c == WHITE ? 0 : 7;
        if (u.p.walk == KING && rank_of(u.sq) == home && (file_of(u.sq) == 6 || file_of(u.sq) == 2))
            add(make_square(4, home), KING,
                file_of(u.sq) == 6 ? bit(make_square(7, home)) : bit(make_square(0, home)) | bit(make_square(1, home)),
                MOVE, file_of(u.sq) == 6 ? square_bb(make_square(5, home)) : square_bb(make_square(3, home)));
        return out;
    }
    for (const auto& [df, dr] : kKingSteps) {
        if (!along(u.p.walk, df, dr)) continue;
        Mask between = 0;
        Bitboard passed = 0;
        for (Square from = offset(u.sq, df, dr); from != SQ_NONE; from = offset(from, df, dr)) {
            add(from, u.p.walk, between, MOVE, passed);
            between |= bit(from);
            passed |= square_bb(from);
        }
    }
    // A rook that castled, from h1 (a1, passing b1), not past the king's square (the king moved at
    // the same time).
    const int home = c == WHITE ? 0 : 7;
    if (u.p.walk == ROOK && rank_of(u.sq) == home && file_of(u.sq) == 5)
        add(make_square(7, home), ROOK, 0, MOVE, square_bb(make_square(6, home)));
    if (u.p.walk == ROOK && rank_of(u.sq) == home && file_of(u.sq) == 3)
        add(make_square(0, home), ROOK, bit(make_square(1, home)), MOVE, square_bb(make_square(1, home)));
    return out;
}

// Depth-first choice of an option per unit, keeping the order's transitive closure.
class OrderSearch {
  public:
    OrderSearch(std::vector<std::vector<Option>> options, long max_nodes)
        : options_(std::move(options)), nodes_left_(max_nodes) {}

    // 1: some choice leaves an order; 0: none; -1: out of nodes.
    int run() {
        std::array<Mask, 64> after{};  // after[x]: units that came after x (transitively)
        return search(0, after, 0, 0);
    }

  private:
    std::vector<std::vector<Option>> options_;
    long nodes_left_;

    int search(size_t i, const std::array<Mask, 64>& after, Mask never, Mask moved) {
        if (i == options_.size()) return 1;
        bool out_of_nodes = false;
        for (const Option& o : options_[i]) {
            if (--nodes_left_ < 0) return -1;
            std::array<Mask, 64> next = after;
            Mask next_never = never, next_moved = moved;
            if (!apply(i, o, next, next_never, next_moved)) continue;
            const int r = search(i + 1, next, next_never, next_moved);
            if (r == 1) return 1;
            if (r < 0) out_of_nodes = true;
        }
        return out_of_nodes ? -1 : 0;
    }

    // Adds the constraints of unit x's option o; false on a contradiction.
    static bool apply(size_t x, const Option& o, std::array<Mask, 64>& after, Mask& never, Mask& moved) {
        const Mask me = Mask(1) << x;
        if (o.never) {
            if (moved & me) return false;
            for (const Mask a : after)
                if (a & me) return false;  // something came before a unit that never moved
            never |= me;
            return true;
        }
        if (o.moved & never) return false;
        moved |= o.moved;
        for (Mask b = o.after; b;) {
            const int y = std::countr_zero(b);
            b &= b - 1;
            const Mask reach = (Mask(1) << y) | after[size_t(y)];
            if ((reach & me) || (reach & never)) return false;
            for (size_t z = 0; z < 64; ++z)
                if (z == x || (after[z] & me)) after[z] |= reach;
        }
        for (Mask b = o.before; b;) {
            const int y = std::countr_zero(b);
            b &= b - 1;
            const Mask them = Mask(1) << y;
            const Mask reach = me | after[x];
            if ((reach & them) || (never & them)) return false;
            moved |= them;
            for (size_t z = 0; z < 64; ++z)
                if (z == size_t(y) || (after[z] & them)) after[z] |= reach;
        }
        return true;
    }
};

// The units of s with their options (empty when s has a fairy unit).
std::vector<Unit> units_of(const Setup& s) {
    std::vector<Unit> units;
    std::array<int, SQUARE_NB> at;
    at.fill(-1);
    for (int q = 0; q < SQUARE_NB; ++q) {
        const Piece p = s.board[q];
        if (p.empty()) continue;
        if (p.walk > PAWN) return {};  // fairy walks: not worked out
        at[q] = int(units.size());
        units.push_back({Square(q), p, {}});
    }
    for (size_t i = 0; i < units.size(); ++i) units[i].options = options_of(units, at, int(i), s.castling);
    return units;
}

// Drops the options that cannot be a unit's (in place) and sets `free`, the units that may have
// come last without any constraint: no cycle runs through them (nothing is bound to come after
// them), so they and the constraints on them are left out of the search. False when some unit
// is left no option. The units of `keep` are never free. With `dominance`, an option asking
// more than another of its kind is dropped too (the search needs only the other; a question on
// the sources of a unit's last move needs them all).
bool prune(std::vector<Unit>& units, Mask keep, Mask& free, bool dominance = true) {
    free = 0;
    const auto unconstrained = [](const Option& o) { return !o.never && o.after == 0 && o.moved == 0; };
    for (size_t i = 0; i < units.size(); ++i)
        for (const Option& o : units[i].options)
            if (unconstrained(o) && !(keep & (Mask(1) << i))) free |= Mask(1) << i;
    for (bool again = true; again;) {
        again = false;
        Mask never_only = 0;
        for (size_t i = 0; i < units.size(); ++i) {
            const std::vector<Option>& opts = units[i].options;
            if (opts.empty()) return false;  // no way onto its square
            if (opts.size() == 1 && opts[0].never) never_only |= Mask(1) << i;
        }
        for (size_t i = 0; i < units.size(); ++i) {
            if (free & (Mask(1) << i)) continue;
            std::vector<Option>& opts = units[i].options;
            const size_t before = opts.size();
            // A last move that needs a unit that never moved to come after it is impossible.
            std::erase_if(opts, [&](const Option& o) { return !o.never && ((o.after | o.moved) & never_only); });
            for (Option& o : opts) {
                o.after &= ~free;
                o.moved &= ~free;
                o.before &= ~free;
            }
            // An option asking more than another of its kind is not needed.
            const auto same = [](const Option& a, const Option& b) {
                return a.never == b.never && a.kind == b.kind && a.after == b.after && a.moved == b.moved &&
                       a.before == b.before;
            };
            std::vector<Option> kept;
            for (const Option& o : opts) {
                const bool dominated = dominance && std::any_of(opts.begin(), opts.end(), [&](const Option& p) {
                                           return !o.never && p.kind == o.kind && (p.after & ~o.after) == 0 &&
                                                  (p.moved & ~o.moved) == 0 && (p.before & ~o.before) == 0 &&
                                                  !same(p, o);
                                       });
                if (!dominated &&
                    (!dominance || std::none_of(kept.begin(), kept.end(), [&](const Option& k) { return same(k, o); })))
                    kept.push_back(o);
            }
            opts.swap(kept);
            if (opts.size() != before) again = true;
            if (opts.empty()) return false;
            if (!(keep & (Mask(1) << i)) && std::any_of(opts.begin(), opts.end(), unconstrained)) {
                free |= Mask(1) << i;
                again = true;
            }
        }
    }
    return true;
}

// Whether some choice of an option per unit leaves an order: 1 yes, 0 no, -1 not worked out
// within max_nodes. The units of `keep` are searched even when free (a question asks them to
// come early).
int orderable(std::vector<Unit> units, long max_nodes, Mask keep = 0) {
    if (units.size() > 64) return -1;
    Mask free = 0;
    if (!prune(units, keep, free)) return 0;
    // The units left, fewest options first, renumbered.
    std::vector<size_t> order;
    for (size_t i = 0; i < units.size(); ++i)
        if (!(free & (Mask(1) << i))) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return units[a].options.size() < units[b].options.size(); });
    std::array<int, 64> index;
    index.fill(-1);
    for (size_t k = 0; k < order.size(); ++k) index[order[k]] = int(k);
    std::vector<std::vector<Option>> options;
    for (size_t i : order) {
        std::vector<Option> mapped;
        for (const Option& o : units[i].options) {
            Option m{.never = o.never, .kind = o.kind, .path = o.path, .from = o.from};
            for (size_t y = 0; y < units.size(); ++y) {
                if (index[y] < 0) continue;
                if (o.after & (Mask(1) << y)) m.after |= Mask(1) << index[y];
                if (o.moved & (Mask(1) << y)) m.moved |= Mask(1) << index[y];
                if (o.before & (Mask(1) << y)) m.before |= Mask(1) << index[y];
            }
            mapped.push_back(m);
        }
        options.push_back(std::move(mapped));
    }
    return OrderSearch(std::move(options), max_nodes).run();
}

// The squares a unit of walk w on `home` steps or jumps to first when it leaves it.
Bitboard first_steps(Walk w, Square home) {
    Bitboard out = 0;
    for (const auto& [df, dr] : w == KNIGHT ? kKnightJumps : kKingSteps) {
        if (!along(w, df, dr)) continue;
        if (const Square to = offset(home, df, dr); to != SQ_NONE) out |= square_bb(to);
    }
    return out;
}

// The game-array squares of queens, rooks, bishops and knights whose unit every order proves
// taken there by a piece (LegalityMarks::taken_home). The squares its first steps start on and
// those from which a pawn of the other side takes onto it are held by units of its side: a unit
// that never moved (its one option), or a pawn whose last move, by every option left, came from
// that square, its game-array square, where it had stood since the start. So the unit of the
// home square cannot have moved before the first holder's last move, nor can a pawn have taken
// it. When, with any holder u coming before every last move that starts on, passes or ends on
// the home square, no order is left (each u in turn, searched with u kept), such a move came
// before every holder's: the home square's unit was gone by then, taken there by a piece (a
// move onto it before then is no move of its own unit). Where every holder never moved the
// static analysis knows as much (its walls): left out.
Bitboard taken_at_home(const std::vector<Unit>& units, long max_nodes) {
    std::vector<Unit> pruned = units;
    Mask free = 0;
    if (!prune(pruned, 0, free, false)) return 0;
    std::array<int, SQUARE_NB> at;
    at.fill(-1);
    for (size_t i = 0; i < units.size(); ++i) at[units[i].sq] = int(i);
    Bitboard taken = 0;
    for (Color c : {WHITE, BLACK})
        for (int file = 0; file < 8; ++file) {
            const Walk w = BACK_RANK_WALKS[file];
            if (w == KING) continue;
            const int home_rank = c == WHITE ? 0 : 7, second = c == WHITE ? 1 : 6;
            const Square home = make_square(file, home_rank);
            Bitboard held = first_steps(w, home);
            for (int df : {-1, 1})
                if (const Square q = offset(home, df, c == WHITE ? 1 : -1); q != SQ_NONE) held |= square_bb(q);
            Mask holders = 0;
            bool ok = true;
            for (Bitboard b = held; b && ok;) {
                const Square q = pop_lsb(b);
                if (const int k = at[q]; k >= 0 && units[size_t(k)].p.color == c) {
                    const std::vector<Option>& opts = pruned[size_t(k)].options;
                    if (opts.size() == 1 && opts[0].never) continue;  // never moved
                }
                ok = false;
                if (rank_of(q) != second) break;
                for (size_t u = 0; u < units.size() && !ok; ++u) {
                    const std::vector<Option>& opts = pruned[u].options;
                    if (units[u].p.color != c || units[u].p.walk != PAWN || opts.empty()) continue;
                    if (std::all_of(opts.begin(), opts.end(),
                                    [&](const Option& o) { return !o.never && o.from == q; })) {
                        holders |= Mask(1) << u;
                        ok = true;
                    }
                }
            }
            if (!ok || !holders) continue;
            const Bitboard h = square_bb(home);
            for (Mask b = holders; b && ok;) {
                const int u = std::countr_zero(b);
                b &= b - 1;
                std::vector<Unit> asked = units;
                for (Unit& x : asked)
                    for (Option& o : x.options)
                        if (!o.never && ((o.path & h) || x.sq == home)) o.before |= Mask(1) << u;
                ok = orderable(std::move(asked), max_nodes, Mask(1) << u) == 0;
            }
            if (ok) taken |= h;
        }
    return taken;
}

}  // namespace

bool order_refutes(const Setup& s, long max_nodes) {
    const std::vector<Unit> units = units_of(s);
    return !units.empty() && units.size() <= 64 && orderable(units, max_nodes) == 0;
}

OrderFacts order_facts(const Setup& s, long max_nodes) {
    OrderFacts facts;
    const std::vector<Unit> units = units_of(s);
    if (units.empty() || units.size() > 64) return facts;
    const int whole = orderable(units, max_nodes);
    if (whole <= 0) {
        facts.refuted = whole == 0;
        return facts;
    }
    // Each unit that may have never moved, or came last by a promotion: whether it may not.
    for (size_t i = 0; i < units.size(); ++i) {
        const std::vector<Option>& opts = units[i].options;
        for (Kind kind : {NEVER, PROMOTION}) {
            if (std::none_of(opts.begin(), opts.end(), [&](const Option& o) { return o.kind == kind; })) continue;
            const bool only = std::all_of(opts.begin(), opts.end(), [&](const Option& o) { return o.kind == kind; });
            std::vector<Unit> other = units;
            std::erase_if(other[i].options, [&](const Option& o) { return o.kind == kind; });
            if (!only && orderable(std::move(other), max_nodes) != 0) continue;
            (kind == NEVER ? facts.marks.frozen : facts.marks.promoted_here) |= square_bb(units[i].sq);
        }
    }
    facts.marks.taken_home = taken_at_home(units, max_nodes);
    return facts;
}

}  // namespace rebirth
