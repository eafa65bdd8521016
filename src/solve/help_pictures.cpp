#include "solve/help_pictures.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/walk_attacks.h"
#include "rebirth/bitboard.h"
#include "rebirth/distance.h"
#include "rebirth/goal.h"
#include "rebirth/movegen.h"
#include "rebirth/setup.h"

namespace rebirth {

namespace {

// The walk a unit of a picture has in the final position: its own (a pawn staying a pawn), a
// promoted line piece (counted as a queen, which never needs more moves nor attacks less), a
// promoted queen, rook, bishop or knight (each by its own distance), or any walk (a
// defending unit that blocks a flight).
enum class Form : std::uint8_t { Same, PromotedLine, PromotedKnight, Any, PromotedQueen, PromotedRook, PromotedBishop };

// The walk of a promoted form that names one (NO_WALK otherwise).
Walk promoted_walk(Form f) {
    switch (f) {
        case Form::PromotedQueen:
            return QUEEN;
        case Form::PromotedRook:
            return ROOK;
        case Form::PromotedBishop:
            return BISHOP;
        case Form::PromotedKnight:
            return KNIGHT;
        default:
            return NO_WALK;
    }
}

// Fewest moves (empty board, distance.h) for a unit now of walk w and colour c on s to stand
// on t in form f; kFar when it never can.
int compute_distance_to(Walk w, Color c, Square s, Square t, Form f) {
    auto at = [t](const std::uint8_t* row) { return row ? int(row[t]) : kFar; };
    if (w != PAWN) {
        const bool line = w == QUEEN || w == ROOK || w == BISHOP;
        if ((f == Form::PromotedLine && !line) || (promoted_walk(f) != NO_WALK && promoted_walk(f) != w)) return kFar;
        return at(empty_distances_from(w, c, s));
    }
    switch (f) {
        case Form::Same:
            return at(empty_distances_as(PAWN, c, s, PAWN));
        case Form::PromotedQueen:
        case Form::PromotedLine:
            return at(empty_distances_as(PAWN, c, s, QUEEN));
        case Form::PromotedRook:
            return at(empty_distances_as(PAWN, c, s, ROOK));
        case Form::PromotedBishop:
            return at(empty_distances_as(PAWN, c, s, BISHOP));
        case Form::PromotedKnight:
            return at(empty_distances_as(PAWN, c, s, KNIGHT));
        case Form::Any:
            break;
    }
    return std::min({at(empty_distances_as(PAWN, c, s, PAWN)), at(empty_distances_as(PAWN, c, s, QUEEN)),
                     at(empty_distances_as(PAWN, c, s, KNIGHT))});
}

// compute_distance_to's values as a table per colour, walk (KING..PAWN), square and form,
// each row (colour, walk, square) made when first asked, under a lock, then read-only.
struct DistanceTable {
    static constexpr int kForms = 7;
    using Row = std::array<std::array<std::uint8_t, SQUARE_NB>, kForms>;
    std::array<std::array<Row, SQUARE_NB>, 7> rows[COLOR_NB];
    std::array<std::array<std::atomic<bool>, SQUARE_NB>, 7> ready[COLOR_NB]{};
    std::mutex making;

    const Row& row(Color c, Walk w, Square s) {
        if (!ready[c][w][s].load(std::memory_order_acquire)) {
            std::lock_guard<std::mutex> lock(making);
            if (!ready[c][w][s].load(std::memory_order_relaxed)) {
                for (int f = 0; f < kForms; ++f)
                    for (int t = 0; t < SQUARE_NB; ++t)
                        rows[c][w][s][f][t] =
                            std::uint8_t(std::min(compute_distance_to(w, c, s, Square(t), Form(f)), kFar));
                ready[c][w][s].store(true, std::memory_order_release);
            }
        }
        return rows[c][w][s];
    }
};

int distance_to(Walk w, Color c, Square s, Square t, Form f) {
    static DistanceTable table;
    return table.row(c, w, s)[int(f)][t];
}

// The walk whose empty-board attacks a unit of walk w has in form f.
Walk attack_walk(Walk w, Form f) {
    if (f == Form::PromotedLine) return QUEEN;
    if (promoted_walk(f) != NO_WALK) return promoted_walk(f);
    return w;
}

struct Unit {
    Square square;
    Walk walk;
    Color color;
};

struct Target {
    int unit;
    Square square;
    Form form;
    friend bool operator<(const Target& a, const Target& b) { return a.unit < b.unit; }
};

struct Picture {
    std::vector<Target> targets;  // the mated king's first
    Bitboard empty = 0;           // squares that must be empty
    // The checking unit when it must make the mating move itself: it attacks the king along
    // no square that another unit could leave (a pawn, a knight, a line piece next to the
    // king). Before the mating move the mated side is not in check (its own last move, or
    // pass, would have left it there), so such a checker standing on its square must still
    // leave it and come back: two moves. -1 otherwise.
    int moving_checker = -1;
    std::vector<int> captured;                // stalemate: defending units that must be taken
    Target checker{-1, SQ_NONE, Form::Same};  // mate: the checking unit's target
};

// The moves a picture unit needs: its distance, or 2 for a checker that must move last and
// already stands on its square.
int picture_distance(const Picture& p, int id, Walk w, Color c, Square s, Square t, Form f) {
    const int d = distance_to(w, c, s, t, f);
    return d == 0 && id == p.moving_checker ? 2 : d;
}

// The walks (bit 1 << walk) in which a unit first of walk `origin` meets form f on its
// square: compute_distance_to's rule, a promoted form naming its walk exactly.
unsigned accepted_walks(Walk origin, Form f) {
    unsigned out = 0;
    for (Walk w : {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN}) {
        bool ok = false;
        if (origin != PAWN) {
            const bool line = w == QUEEN || w == ROOK || w == BISHOP;
            ok = w == origin && !(f == Form::PromotedLine && !line) &&
                 (promoted_walk(f) == NO_WALK || promoted_walk(f) == w);
        } else if (f == Form::Same) {
            ok = w == PAWN;
        } else if (f == Form::Any) {
            ok = w != KING;
        } else if (f == Form::PromotedLine) {
            ok = w == QUEEN || w == ROOK || w == BISHOP;
        } else {
            ok = w == promoted_walk(f);
        }
        if (ok) out |= 1u << w;
    }
    return out;
}

// Castling moves two units with one move: one move more for a side that may still castle.
int castling_bonus(const Position& pos, Color c) {
    return (pos.castling_rights() & rank_bb(c == WHITE ? 0 : 7)) ? 1 : 0;
}

// Whether castling can spare colour c a move towards the picture of `targets`, its units'
// distances measured by distance(target, walk, square) (a metric in which each move of the
// unit shortens its distance by one at most, the king's counting castling's two-file step):
// only when the picture places both c's king and a rook that may castle with it, and each is
// a move nearer its square from its castled square than from its own (castling shortens the
// sum by two then, by one at most otherwise). Otherwise c needs at least that sum.
template <class Distance>
bool castling_saves(const Position& root, const std::vector<Unit>& units, const std::vector<Target>& targets, Color c,
                    Distance&& distance) {
    const Bitboard rights = root.castling_rights();
    const int rank = c == WHITE ? 0 : 7;
    const Square home = make_square(4, rank);
    if (!(rights & square_bb(home))) return false;
    auto target_of = [&](Square from, Walk w) -> const Target* {
        for (const Target& t : targets)
            if (units[t.unit].square == from && units[t.unit].walk == w && units[t.unit].color == c) return &t;
        return nullptr;
    };
    const Target* king = target_of(home, KING);
    if (!king) return false;
    for (const bool short_side : {true, false}) {
        const Square corner = make_square(short_side ? 7 : 0, rank);
        if (!(rights & square_bb(corner))) continue;
        const Target* rook = target_of(corner, ROOK);
        if (!rook) continue;
        const Square king_to = make_square(short_side ? 6 : 2, rank), rook_to = make_square(short_side ? 5 : 3, rank);
        if (distance(*king, KING, home) == 1 + distance(*king, KING, king_to) &&
            distance(*rook, ROOK, corner) == 1 + distance(*rook, ROOK, rook_to))
            return true;
    }
    return false;
}

// Moves (of both sides) that may vacate a square besides their departure square, within
// `half_moves`: castling (the rook's square) and en passant (the taken pawn's square, which
// matters only for squares of `empty` that hold pawns on the en-passant ranks).
int extra_vacated(const Position& pos, Bitboard empty, int half_moves) {
    const int extra = castling_bonus(pos, WHITE) + castling_bonus(pos, BLACK);
    const Bitboard ep_pawns = empty & pos.pieces(PAWN) & (rank_bb(3) | rank_bb(4));
    return extra + std::min(popcount(ep_pawns), half_moves / 2);
}

// Enumerates the mate or stalemate pictures of a position (see help_pictures.h) within the budgets of
// the attacker's and the defender's moves, calling `found` once per distinct picture.
class PictureMaker {
  public:
    PictureMaker(const Position& pos, const std::vector<Unit>& units, Color attacker, Goal goal, int attacker_moves,
                 int defender_moves)
        : pos_(pos),
          units_(units),
          attacker_(attacker),
          stalemate_(goal == Goal::Stalemate),
          a_moves_(attacker_moves),
          d_moves_(defender_moves) {
        for (int i = 0; i < int(units.size()); ++i) {
            if (units[i].walk != KING) ++others_[units[i].color];
            if (units[i].color == attacker)
                attackers_.push_back(i);
            else if (units[i].walk == KING)
                king_ = i;
            else
                defenders_.push_back(i);
        }
        used_.assign(units.size(), 0);
        Setup empty;
        empty.side_to_move = ~attacker;
        SetupRules kingless;
        kingless.require_white_king = kingless.require_black_king = false;
        board_.set(empty, kingless);
        // within_[id][form][d]: the squares unit id reaches in form `form` with at most d
        // moves, for d up to its side's budget.
        within_.resize(units.size());
        for (int id = 0; id < int(units.size()); ++id) {
            const Unit& u = units[id];
            const int budget = u.color == attacker ? a_moves_ : d_moves_;
            for (int f = 0; f < kFormCount; ++f) {
                auto& rows = within_[id][f];
                rows.assign(std::max(budget, 0) + 1, 0);
                for (int t = 0; t < SQUARE_NB; ++t) {
                    const int d = distance_to(u.walk, u.color, u.square, Square(t), Form(f));
                    if (d <= budget) rows[d] |= square_bb(Square(t));
                }
                for (std::size_t k = 1; k < rows.size(); ++k) rows[k] |= rows[k - 1];
            }
        }
    }

    // The squares unit id reaches in form f with at most `moves` moves (none when negative).
    Bitboard within(int id, Form f, int moves) const {
        if (moves < 0) return 0;
        const auto& rows = within_[id][int(f)];
        return rows[std::min<std::size_t>(moves, rows.size() - 1)];
    }

    // Calls found(picture) for each picture; false when there were more than `cap`.
    template <class F>
    bool run(F&& found, std::size_t cap) {
        found_ = [&](const Picture& p) { found(p); };
        cap_ = cap;
        const Unit& king = units_[king_];
        const std::uint8_t* walk = empty_distances_from(KING, king.color, king.square);
        for (int k = 0; k < 64 && !over_; ++k) {
            if (walk[k] > d_moves_) continue;
            k_ = Square(k);
            flights_.clear();
            for (Bitboard b = king_attacks(k_); b;) flights_.push_back(pop_lsb(b));
            picture_.targets = {{king_, k_, Form::Same}};
            used_[king_] = 1;
            d_cost_ = walk[k];
            a_cost_ = 0;
            placed_ = square_bb(k_);
            picture_.empty = 0;
            // Stalemate: the king's own moves are stopped like every other (immobilise).
            if (stalemate_)
                immobilise();
            else
                checks();
            used_[king_] = 0;
        }
        return !over_;
    }

  private:
    // The forms a placed unit may have: its own, and a pawn's promotions (for mate, the
    // attacker's line pieces as one form; for stalemate, where walks decide what can move,
    // each walk apart; a mate's blocker in any walk).
    int forms_of(const Unit& u, Form* out) const {
        out[0] = Form::Same;
        if (u.color != attacker_ && !stalemate_) {
            out[0] = Form::Any;
            return 1;
        }
        if (u.walk != PAWN) return 1;
        if (!stalemate_) {
            out[1] = Form::PromotedLine;
            out[2] = Form::PromotedKnight;
            return 3;
        }
        out[1] = Form::PromotedQueen;
        out[2] = Form::PromotedRook;
        out[3] = Form::PromotedBishop;
        out[4] = Form::PromotedKnight;
        return 5;
    }

    // Every checking unit of the attacker (not its king) on every square attacking k.
    void checks() {
        for (int id : attackers_) {
            const Unit& u = units_[id];
            if (u.walk == KING) continue;
            Form forms[5];
            const int nf = forms_of(u, forms);
            for (int fi = 0; fi < nf; ++fi) {
                for (Bitboard b = empty_attackers(attack_walk(u.walk, forms[fi]), u.color, k_); b;) {
                    const Square c = pop_lsb(b);
                    const Bitboard line = between_bb(c, k_);
                    picture_.moving_checker = line ? -1 : id;
                    picture_.checker = {id, c, forms[fi]};
                    const int d = picture_distance(picture_, id, u.walk, u.color, u.square, c, forms[fi]);
                    if (d > a_moves_) continue;
                    place(id, c, forms[fi], d, 0, line);
                    flight(0);
                    unplace(d, 0);
                }
            }
        }
    }

    // The captures a placed pawn makes on its way: its file changes when it stays a pawn.
    int pawn_captures(int id, Square s, Form f) const {
        const Unit& u = units_[id];
        return u.walk == PAWN && f == Form::Same ? std::abs(int(s % 8) - int(u.square % 8)) : 0;
    }

    // Whether the pawns' captures can be made: each takes a different unit of the other side
    // that the picture does not place (nor a king).
    bool captures_possible() const {
        return caps_[WHITE] <= others_[BLACK] - placed_others_[BLACK] &&
               caps_[BLACK] <= others_[WHITE] - placed_others_[WHITE];
    }

    void place(int id, Square s, Form f, int a_cost, int d_cost, Bitboard line) {
        caps_[units_[id].color] += pawn_captures(id, s, f);
        if (units_[id].walk != KING) ++placed_others_[units_[id].color];
        picture_.targets.push_back({id, s, f});
        used_[id] = 1;
        placed_ |= square_bb(s);
        a_cost_ += a_cost;
        d_cost_ += d_cost;
        saved_empty_.push_back(picture_.empty);
        picture_.empty |= line;
    }
    void unplace(int a_cost, int d_cost) {
        const Target t = picture_.targets.back();
        caps_[units_[t.unit].color] -= pawn_captures(t.unit, t.square, t.form);
        if (units_[t.unit].walk != KING) --placed_others_[units_[t.unit].color];
        picture_.targets.pop_back();
        used_[t.unit] = 0;
        placed_ &= ~square_bb(t.square);
        a_cost_ -= a_cost;
        d_cost_ -= d_cost;
        picture_.empty = saved_empty_.back();
        saved_empty_.pop_back();
    }

    // Whether a placed attacking unit attacks f, no other placed unit standing between (the
    // mated king excepted: a checking line goes on behind it). Units placed later may still
    // block it: the picture is then weaker, never wrong, as it asks nothing for f.
    bool covered(Square f) const {
        for (const Target& t : picture_.targets) {
            const Unit& u = units_[t.unit];
            if (u.color != attacker_) continue;
            if ((empty_attacks(attack_walk(u.walk, t.form), u.color, t.square) & square_bb(f)) &&
                !(between_bb(t.square, f) & placed_ & ~square_bb(k_)))
                return true;
        }
        return false;
    }

    // Mate: the flights from index i on, each covered already, blocked by a defending unit,
    // or attacked by one more attacking unit.
    void flight(std::size_t i) {
        if (over_ || !captures_possible()) return;
        if (i == flights_.size()) {
            finish();
            return;
        }
        const Square f = flights_[i];
        if (covered(f)) {
            flight(i + 1);
            return;
        }
        // A defending unit on f.
        if (!(placed_ & square_bb(f)) && !(picture_.empty & square_bb(f))) {
            for (int id : defenders_) {
                if (used_[id]) continue;
                const Unit& u = units_[id];
                Form forms[5];
                const int nf = forms_of(u, forms);
                for (int fi = 0; fi < nf; ++fi) {
                    if (!(within(id, forms[fi], d_moves_ - d_cost_) & square_bb(f))) continue;
                    const int d = distance_to(u.walk, u.color, u.square, f, forms[fi]);
                    place(id, f, forms[fi], 0, d, 0);
                    flight(i + 1);
                    unplace(0, d);
                }
            }
        }
        // One more attacking unit attacking f (along a line through k when it checks too).
        for (int id : attackers_) {
            if (used_[id]) continue;
            const Unit& u = units_[id];
            Form forms[5];
            const int nf = forms_of(u, forms);
            for (int fi = 0; fi < nf; ++fi) {
                const Walk aw = attack_walk(u.walk, forms[fi]);
                for (Bitboard b = empty_attackers(aw, u.color, f) & within(id, forms[fi], a_moves_ - a_cost_); b;) {
                    const Square g = pop_lsb(b);
                    if ((placed_ | picture_.empty) & square_bb(g)) continue;
                    if (u.walk == KING && (king_attacks(k_) & square_bb(g))) continue;
                    const Bitboard line = between_bb(g, f) & ~square_bb(k_);
                    if (line & placed_) continue;
                    const int d = distance_to(u.walk, u.color, u.square, g, forms[fi]);
                    if (a_cost_ + d > a_moves_) continue;
                    place(id, g, forms[fi], d, 0, line);
                    flight(i + 1);
                    unplace(d, 0);
                }
            }
        }
    }

    // A complete picture: the squares that must be empty and hold units now each need a move.
    void finish() {
        // The budgets count a move more for a side that may castle; this picture may need it.
        // The costs are empty-board distances.
        auto empty_board = [this](const Target& t, Walk w, Square s) {
            return distance_to(w, units_[t.unit].color, s, t.square, t.form);
        };
        if (a_cost_ > a_moves_ - castling_bonus(pos_, attacker_) &&
            !castling_saves(pos_, units_, picture_.targets, attacker_, empty_board))
            return;
        if (d_cost_ > d_moves_ - castling_bonus(pos_, ~attacker_) &&
            !castling_saves(pos_, units_, picture_.targets, ~attacker_, empty_board))
            return;
        const int openings = popcount(picture_.empty & pos_.pieces());
        if (openings > a_moves_ + d_moves_ + extra_vacated(pos_, picture_.empty, a_moves_ + d_moves_)) return;
        if (!stalemate_ && !parries_preventable()) return;
        Picture p = picture_;
        std::sort(p.targets.begin(), p.targets.end());
        std::sort(p.captured.begin(), p.captured.end());
        std::vector<int> key;
        key.push_back(int(p.empty & 0xffffffff));
        key.push_back(int(p.empty >> 32));
        key.push_back(p.moving_checker);
        key.insert(key.end(), p.captured.begin(), p.captured.end());
        key.push_back(-1);
        for (const Target& t : p.targets) key.insert(key.end(), {t.unit, int(t.square), int(t.form)});
        if (!seen_.insert(std::move(key)).second) return;
        if (seen_.size() > cap_) {
            over_ = true;
            return;
        }
        found_(p);
    }

    // The walks a placed unit may have in the final position: its own (a piece), the form's
    // (a pawn promoting to a named walk), or those a pawn in several forms reaches within the
    // moves its side has left, each walk by its own distance (a promoted line piece: queen,
    // rook, bishop; any form: a pawn too, and a knight). At most 5, in out.
    int final_walks(const Target& t, Walk* out) const {
        const Unit& u = units_[t.unit];
        if (u.walk != PAWN) {
            out[0] = u.walk;
            return 1;
        }
        if (promoted_walk(t.form) != NO_WALK) {
            out[0] = promoted_walk(t.form);
            return 1;
        }
        if (t.form == Form::Same) {
            out[0] = PAWN;
            return 1;
        }
        int n = 0;
        // The moves this unit may take: its side's budget less the other units' costs. Each
        // walk counts with its own distance (a promoted bishop keeps its promotion square's
        // colour).
        const int budget = (u.color == attacker_ ? a_moves_ - a_cost_ : d_moves_ - d_cost_) +
                           distance_to(PAWN, u.color, u.square, t.square, t.form);
        if (t.form == Form::Any && distance_to(PAWN, u.color, u.square, t.square, Form::Same) <= budget)
            out[n++] = PAWN;
        if (distance_to(PAWN, u.color, u.square, t.square, Form::PromotedQueen) <= budget) out[n++] = QUEEN;
        if (distance_to(PAWN, u.color, u.square, t.square, Form::PromotedRook) <= budget) out[n++] = ROOK;
        if (distance_to(PAWN, u.color, u.square, t.square, Form::PromotedBishop) <= budget) out[n++] = BISHOP;
        if (t.form == Form::Any && distance_to(PAWN, u.color, u.square, t.square, Form::PromotedKnight) <= budget)
            out[n++] = KNIGHT;
        return n;
    }

    // The walk a placed unit has in the final position; NO_WALK when it may have several.
    Walk final_walk(const Target& t) const {
        Walk walks[5];
        return final_walks(t, walks) == 1 ? walks[0] : NO_WALK;
    }

    // Whether some free unit of colour c, in some form, passes accept(unit, form, moves left to
    // its side).
    template <class Accept>
    bool free_unit_can(Color c, Accept&& accept) const {
        const int left = c == attacker_ ? a_moves_ - a_cost_ : d_moves_ - d_cost_;
        for (int id = 0; id < int(units_.size()); ++id) {
            const Unit& u = units_[id];
            if (used_[id] || u.color != c) continue;
            Form forms[5];
            const int nf = forms_of(u, forms);
            for (int fi = 0; fi < nf; ++fi)
                if (accept(u, forms[fi], left)) return true;
        }
        return false;
    }

    // Whether a free unit of colour c can stand on one of `squares` in time.
    bool free_unit_on(Color c, Bitboard squares) const {
        return free_unit_can(c, [&](const Unit& u, Form f, int left) {
            for (Bitboard b = squares & ~picture_.empty; b;)
                if (distance_to(u.walk, u.color, u.square, pop_lsb(b), f) <= left) return true;
            return false;
        });
    }

    // Whether a free attacking unit can attack `target` in time from a square whose line to
    // it holds no placed unit but those of `through`; with `pin_through` set, only along a
    // line that passes that square (a pin).
    bool free_attacker_of(Square target, Bitboard through, Square pin_through = SQ_NONE) const {
        return free_unit_can(attacker_, [&](const Unit& u, Form f, int left) {
            const Walk w = attack_walk(u.walk, f);
            if (w == KING && pin_through != SQ_NONE) return false;
            if (w == KING && target == k_) return false;  // kings never give check
            for (Bitboard b = empty_attackers(w, u.color, target) & ~placed_ & ~picture_.empty; b;) {
                const Square g = pop_lsb(b);
                const Bitboard line = between_bb(g, target);
                if (pin_through != SQ_NONE && !(line & square_bb(pin_through))) continue;
                if (line & placed_ & ~through) continue;
                if (distance_to(u.walk, u.color, u.square, g, f) <= left) return true;
            }
            return false;
        });
    }

    // The placed units alone: the mated side's legal moves there parry the check; each must
    // be impossible in the final position, which only free units can bring about: standing
    // in the move's way or on its arrival square, pinning the moving unit, giving a second
    // check, or (a king move) guarding the arrival square. False when some parry has no
    // such free unit within the budgets left (the picture then fits no final mate).
    bool parries_preventable() const {
        // Some final walks of the placed units must leave every parry preventable: each
        // combination of the walks a unit may have is tried (beyond 64: no verdict).
        Placed placed;
        std::vector<std::pair<Square, std::vector<Piece>>> open;
        std::size_t combinations = 1;
        for (const Target& t : picture_.targets) {
            Walk walks[5];
            const int n = final_walks(t, walks);
            const Color c = units_[t.unit].color;
            if (n == 1) {
                placed.put(t.square, make_piece(c, walks[0]));
                continue;
            }
            if (n == 0) return true;  // no verdict
            std::vector<Piece> pieces;
            for (int i = 0; i < n; ++i) pieces.push_back(make_piece(c, walks[i]));
            combinations *= pieces.size();
            open.emplace_back(t.square, std::move(pieces));
        }
        if (combinations > 64) return true;  // no verdict
        for (std::size_t k = 0; k < combinations; ++k) {
            std::size_t rest = k;
            for (const auto& [square, pieces] : open) {
                placed.put(square, pieces[rest % pieces.size()]);
                rest /= pieces.size();
            }
            Position* board = board_of(placed);
            if (board ? parries_preventable_on(*board) : !king_attack_fixed(placed)) return true;
        }
        return false;
    }

    // Whether every legal move of the defender on `board` (the placed units alone, the
    // defender to move) can be stopped by a unit not placed yet.
    bool parries_preventable_on(Position& board) const {
        const Color defender = ~attacker_;
        MoveList parries;
        generate_legal(board, parries);
        for (const Move& r : parries) {
            if (r.kind == MoveKind::EnPassant) continue;
            const Bitboard to = square_bb(r.to);
            const bool to_empty = board.empty(r.to);
            bool stopped = false;
            if (r.from == k_) {
                stopped = free_attacker_of(r.to, square_bb(k_)) || (to_empty && free_unit_on(defender, to));
            } else {
                const bool push = board.piece_on(r.from).walk == PAWN && (r.from % 8) == (r.to % 8);
                const Bitboard path = between_bb(r.from, r.to);
                stopped = free_attacker_of(k_, 0) || free_attacker_of(k_, square_bb(r.from), r.from) ||
                          (path && (free_unit_on(defender, path) || free_unit_on(attacker_, path))) ||
                          (to_empty && free_unit_on(defender, to)) || (push && to_empty && free_unit_on(attacker_, to));
            }
            if (!stopped) return false;
        }
        return true;
    }

    // Units on squares (orthodox walks): `at` holds them on the squares of `occ`, empty pieces
    // elsewhere; `king` each colour's king square.
    struct Placed {
        std::array<Piece, SQUARE_NB> at{};
        Bitboard occ = 0;
        Square king[COLOR_NB] = {SQ_NONE, SQ_NONE};
        void put(Square s, Piece p) {
            at[s] = p;
            occ |= square_bb(s);
            if (p.walk == KING) king[p.color] = s;
        }
    };

    // The placed units with their final walks; false when some walk is not known.
    bool placed_units(Placed& out) const {
        for (const Target& t : picture_.targets) {
            const Walk w = final_walk(t);
            if (w == NO_WALK) return false;
            out.put(t.square, make_piece(units_[t.unit].color, w));
        }
        return true;
    }

    // The units of colour `by` among `placed` that attack s.
    static Bitboard attackers_among(const Placed& placed, Square s, Color by) {
        Bitboard out = 0;
        for (Bitboard b = placed.occ; b;) {
            const Square q = pop_lsb(b);
            const Piece p = placed.at[q];
            if (p.color == by && (unit_attack_set(p.walk, by, q, placed.occ) & square_bb(s))) out |= square_bb(q);
        }
        return out;
    }

    // Whether a placed defending unit attacks the placed attacking king along no square a unit
    // could still stand on (next to it, a knight's or pawn's attack, or a line through squares
    // the picture keeps empty): no final position fitting the picture has these walks, the
    // attacker having just moved.
    bool king_attack_fixed(const Placed& placed) const {
        const Square king = placed.king[attacker_];
        if (king == SQ_NONE) return false;
        for (Bitboard b = attackers_among(placed, king, ~attacker_); b;)
            if (!(between_bb(pop_lsb(b), king) & ~picture_.empty)) return true;
        return false;
    }

    // `placed` as a position, the defender to move; null when it is not one (the attacker in
    // check). It is board_, changed square by square from the last board asked: valid until
    // the next call (a caller reads it before placing more units).
    Position* board_of(const Placed& placed) const {
        const Square king = placed.king[attacker_];
        if (king != SQ_NONE && attackers_among(placed, king, ~attacker_)) return nullptr;
        for (Bitboard b = placed.occ | on_board_; b;) {
            const Square s = pop_lsb(b);
            if (placed.at[s] != board_.piece_on(s)) board_.put_for_analysis(s, placed.at[s]);
        }
        on_board_ = placed.occ;
        return &board_;
    }

    // Places a free attacking unit, in each of its forms, on each square of
    // `squares_for(form's walk)` it reaches in time (the squares of `line_of(g)` then kept
    // empty), and goes on with immobilise().
    template <class Squares, class Line>
    void place_attacker(Squares&& squares_for, Line&& line_of) {
        for (int id : attackers_) {
            if (used_[id]) continue;
            const Unit& u = units_[id];
            Form forms[5];
            const int nf = forms_of(u, forms);
            for (int fi = 0; fi < nf && !over_; ++fi) {
                const Walk aw = attack_walk(u.walk, forms[fi]);
                for (Bitboard b =
                         squares_for(aw) & ~placed_ & ~picture_.empty & within(id, forms[fi], a_moves_ - a_cost_);
                     b;) {
                    const Square g = pop_lsb(b);
                    if (u.walk == KING && (king_attacks(k_) & square_bb(g))) continue;
                    if (aw != KING && aw != QUEEN && aw != ROOK && aw != BISHOP &&
                        (empty_attacks(aw, u.color, g) & square_bb(k_)))
                        continue;  // a check nothing could screen
                    const Bitboard line = line_of(g);
                    if (line & placed_) continue;
                    const int d = distance_to(u.walk, u.color, u.square, g, forms[fi]);
                    if (a_cost_ + d > a_moves_) continue;
                    if (counting_) {
                        if (++count_ >= count_limit_) return;
                        continue;
                    }
                    place(id, g, forms[fi], d, 0, line);
                    immobilise();
                    unplace(d, 0);
                }
            }
        }
    }

    // Stalemate: every way the final position can make the defender's move r (legal among
    // the placed units) impossible, each tried with immobilise(): a unit in its way (on its
    // empty arrival square or between; an attacking one only where it cannot be taken
    // instead: in a pawn's way or a line piece's), an attacking unit guarding the king's
    // arrival square, or one pinning the moving unit.
    // `board` is read before the first unit is placed (board_of's board changes then).
    void stop_move(const Position& board, const Move& r) {
        Bitboard way = between_bb(r.from, r.to);
        if (board.empty(r.to)) way |= square_bb(r.to);
        const bool push = board.piece_on(r.from).walk == PAWN && (r.from % 8) == (r.to % 8);
        const bool slide = board.piece_on(r.from).walk != PAWN && between_bb(r.from, r.to);
        place_defender_on(way);
        if (push || slide) {
            const Bitboard in_way = push ? way : between_bb(r.from, r.to);
            place_attacker([in_way](Walk) { return in_way; }, [](Square) { return Bitboard(0); });
        }
        const Square k = k_;
        const Color a = attacker_;
        if (r.from == k) {
            const Square y = r.to;
            place_attacker([y, a](Walk w) { return empty_attackers(w, a, y) & ~square_bb(y); },
                           [y, k](Square g) { return between_bb(g, y) & ~square_bb(k); });
        } else {
            // The squares beyond x on the line from the king through x.
            const Square x = r.from;
            Bitboard far_side = 0;
            for (Bitboard b = line_bb(k, x); b;) {
                const Square g = pop_lsb(b);
                if (between_bb(g, k) & square_bb(x)) far_side |= square_bb(g);
            }
            place_attacker(
                [far_side, k, a](Walk w) {
                    return (w == QUEEN || w == ROOK || w == BISHOP) ? far_side & empty_attackers(w, a, k) : Bitboard(0);
                },
                [x, k](Square g) { return between_bb(g, k) & ~square_bb(x); });
        }
    }

    // Places a defending unit not yet placed, in each of its forms, on each square of
    // `squares` it reaches in time, and goes on with immobilise().
    void place_defender_on(Bitboard squares) {
        squares &= ~placed_ & ~picture_.empty;
        for (int id : defenders_) {
            if (used_[id]) continue;
            const Unit& u = units_[id];
            Form forms[5];
            const int nf = forms_of(u, forms);
            for (int fi = 0; fi < nf && !over_; ++fi)
                for (Bitboard b = squares & within(id, forms[fi], d_moves_ - d_cost_); b;) {
                    const Square z = pop_lsb(b);
                    const int d = distance_to(u.walk, u.color, u.square, z, forms[fi]);
                    if (d_cost_ + d > d_moves_) continue;
                    if (counting_) {
                        if (++count_ >= count_limit_) return;
                        continue;
                    }
                    place(id, z, forms[fi], 0, d, 0);
                    immobilise();
                    unplace(0, d);
                }
        }
    }

    // Stalemate, after the king's field: the placed units alone must be a stalemate, every
    // defending unit placed or taken. A move still legal among the placed units is stopped
    // by one more placed unit (stop_move); with none left, the defending units not placed
    // yet are taken (one attacker move each) or placed anywhere in reach (and stopped in
    // turn). A check among the placed units needs a unit between.
    void immobilise() {
        if (over_ || !captures_possible()) return;
        // Neither king is in check in the final position (the defender is stalemated; the
        // attacker made the last move). Each check among the placed units needs a unit
        // between, one line at a time; a check nothing can screen (adjacent kings included)
        // leaves no picture.
        Placed placed;
        if (!placed_units(placed)) {
            finish();  // no verdict: the units not placed yet stay free
            return;
        }
        for (Color c : {~attacker_, attacker_}) {
            const Square king = placed.king[c];
            if (king == SQ_NONE) continue;
            const Bitboard checkers = attackers_among(placed, king, ~c);
            if (!checkers) continue;
            for (Bitboard b = checkers; b;)
                if (!between_bb(pop_lsb(b), king)) return;
            const Bitboard line = between_bb(lsb(checkers), king);
            place_defender_on(line);
            place_attacker([line](Walk) { return line; }, [](Square) { return Bitboard(0); });
            return;
        }
        Position* placed_board = board_of(placed);
        if (!placed_board) {
            finish();  // no verdict: the units not placed yet stay free
            return;
        }
        Position& board = *placed_board;  // read before stop_move places more units
        // The move with the fewest ways to stop it first (none: no picture).
        MoveList moves;
        generate_legal(board, moves);
        int best = -1, fewest = 0;
        counting_ = true;
        for (int i = 0; i < moves.size(); ++i) {
            if (moves[i].kind == MoveKind::EnPassant) continue;  // no verdict: treated as stopped
            count_ = 0;
            // Counting past the fewest so far cannot make this move the best.
            count_limit_ = best < 0 ? std::numeric_limits<int>::max() : fewest;
            stop_move(board, moves[i]);
            if (count_ == 0) {
                counting_ = false;
                return;
            }
            if (best < 0 || count_ < fewest) best = i, fewest = count_;
        }
        counting_ = false;
        if (best >= 0) {
            stop_move(board, moves[best]);
            return;
        }
        int next = -1;
        for (int id : defenders_)
            if (!used_[id]) {
                next = id;
                break;
            }
        if (next < 0) {
            finish();
            return;
        }
        if (int(picture_.captured.size()) < a_moves_) {
            used_[next] = 1;
            picture_.captured.push_back(next);
            immobilise();
            picture_.captured.pop_back();
            used_[next] = 0;
        }
        const Unit& u = units_[next];
        Form forms[5];
        const int nf = forms_of(u, forms);
        for (int fi = 0; fi < nf && !over_; ++fi)
            for (Bitboard b = within(next, forms[fi], d_moves_ - d_cost_) & ~(placed_ | picture_.empty); b;) {
                const Square z = pop_lsb(b);
                const int d = distance_to(u.walk, u.color, u.square, z, forms[fi]);
                if (d_cost_ + d > d_moves_) continue;
                place(next, Square(z), forms[fi], 0, d, 0);
                immobilise();
                unplace(0, d);
            }
    }

    const Position& pos_;
    const std::vector<Unit>& units_;
    Color attacker_;
    bool stalemate_;
    int a_moves_, d_moves_;
    std::vector<int> attackers_, defenders_;
    int king_ = -1;
    std::vector<std::uint8_t> used_;  // [unit]: placed or taken in the picture so far
    Square k_ = SQ_NONE;
    std::vector<Square> flights_;
    Picture picture_;
    std::vector<Bitboard> saved_empty_;
    Bitboard placed_ = 0;
    int a_cost_ = 0, d_cost_ = 0;
    int caps_[2] = {0, 0};  // captures the placed pawns of each colour make
    // Per colour: its units but the king, and those of them placed (the others may be taken).
    int others_[2] = {0, 0}, placed_others_[2] = {0, 0};
    static constexpr int kFormCount = 7;
    std::vector<std::array<std::vector<Bitboard>, kFormCount>> within_;
    std::set<std::vector<int>> seen_;
    mutable Position board_;         // board_of()'s position
    mutable Bitboard on_board_ = 0;  // the squares of board_'s units
    bool counting_ = false;          // stop_move counts its ways instead of trying them
    int count_ = 0;
    int count_limit_ = 0;  // counting stops there
    std::size_t cap_ = 0;
    bool over_ = false;
    std::function<void(const Picture&)> found_;
};

// The help play towards the pictures, all at once: a position is searched while some
// picture is still feasible for it (both sides' budgets: the distances of the picture's
// units to their squares; the units it takes still to be taken; the openings), and a side
// without slack in every such picture plays only moves that bring a unit of one nearer.
// A picture infeasible once stays so further down (budgets shrink no faster than needs).
class PictureSearch {
  public:
    PictureSearch(const Position& root, const std::vector<Unit>& units, Color goal_side, Goal goal, HelpGuide& guide,
                  const std::function<void()>& visit)
        : root_(root), units_(units), goal_side_(goal_side), goal_(goal), guide_(guide), visit_(visit) {}

    // Help play of `len` half-moves, or (series) `len` moves of the side to move, the goal
    // side passing, then the goal side's move reaching the goal.
    void run(const std::vector<Picture>& pictures, int len, bool series) {
        series_ = series;
        pictures_ = &pictures;
        demand_of_.assign(pictures.size() * units_.size(), -1);
        blocked_.assign(pictures.size(), 0);
        demands_.assign(pictures.size(), 0);
        to_take_.assign(pictures.size(), 0);
        for (std::size_t p = 0; p < pictures.size(); ++p) {
            blocked_[p] = pictures[p].empty;
            for (const Target& t : pictures[p].targets) demands_[p] |= std::uint64_t(1) << t.unit;
            for (int id : pictures[p].captured) to_take_[p] |= std::uint64_t(1) << id;
            for (std::size_t j = 0; j < pictures[p].targets.size(); ++j) {
                const Target& t = pictures[p].targets[j];
                demand_of_[p * units_.size() + t.unit] = std::int16_t(j);
                if (units_[t.unit].color != goal_side_) blocked_[p] |= square_bb(t.square);
            }
        }
        make_tables(pictures);
        // Castling's move more, per picture, in the distances the search sums (the series
        // side's are its still_distances; a checker's 0 counted 2 only lengthens them).
        no_castling_.assign(pictures.size(), 0);
        for (std::size_t p = 0; p < pictures.size(); ++p) {
            auto own_table = [&](const Target& t, Walk w, Square s) {
                return tables_[std::size_t(table_of_[p * units_.size() + std::size_t(t.unit)])].from(w, s);
            };
            for (Color c : {WHITE, BLACK})
                if (!castling_saves(root_, units_, pictures[p].targets, c, own_table)) no_castling_[p] |= 1 << c;
        }
        kind_of_.assign(table_of_.size(), -1);
        for (std::size_t p = 0; p < pictures.size(); ++p)
            for (const Target& t : pictures[p].targets) {
                const std::size_t at = p * units_.size() + std::size_t(t.unit);
                kind_of_[at] = 2 * table_of_[at] + (t.unit == pictures[p].moving_checker ? 1 : 0);
            }
        make_balls();
        kind_slot_.assign(2 * tables_.size(), 0);
        kind_stamp_.assign(2 * tables_.size(), 0);
        delta_.assign(2 * tables_.size(), 0);
        stamp_ = 0;
        id_at_.fill(-1);
        sq_of_.assign(units_.size(), SQ_NONE);
        alive_ = 0;
        units_hash_ = 0;
        units_of_[WHITE] = units_of_[BLACK] = 0;
        for (int i = 0; i < int(units_.size()); ++i) {
            id_at_[units_[i].square] = i;
            sq_of_[i] = units_[i].square;
            sq_bytes_[std::size_t(i)] = char(units_[i].square);
            units_hash_ ^= unit_hash(i, units_[i].square);
            alive_ |= std::uint64_t(1) << i;
            units_of_[units_[i].color] |= std::uint64_t(1) << i;
        }
        frames_.assign(std::size_t(len) + 2, Frame{});
        pawn_units_.clear();
        for (int i = 0; i < int(units_.size()); ++i)
            if (units_[i].walk == PAWN) pawn_units_.push_back(i);
        // Keys without promoted pawns or unusual castling rights fit memo_, the others
        // memo_long_.
        memo_ = LineMap(4 + units_.size());
        memo_long_ = LineMap(4 + sizeof(Bitboard) + units_.size() + pawn_units_.size());
        Position pos = root_;
        Live live;
        for (int p = 0; p < int(pictures.size()); ++p)
            if (feasible(p, pos, len)) live.entries.push_back(entry(p, need(p, pos, WHITE), need(p, pos, BLACK)));
        if (live.empty()) return;
        search(pos, len, live);
    }

  private:
    // The pictures still feasible at a node, with their needs per side (parallel vectors).
    // Each with its picture's facts that still_live() reads, side by side in the order of the
    // pictures (a node's loop reads memory in one sweep).
    struct Live {
        struct Entry {
            int picture;
            int need[2];
            std::uint64_t demands;  // bit id: the picture places unit id
            std::uint64_t to_take;  // bit id: unit id must be taken
            Bitboard empty;         // the squares it needs empty
            int no_castling;        // bit c: castling spares colour c no move here (castling_saves)
        };
        std::vector<Entry> entries;
        void clear() { entries.clear(); }
        bool empty() const { return entries.empty(); }
        std::size_t size() const { return entries.size(); }
    };
    Live::Entry entry(int p, int white, int black) const {
        return {p,
                {white, black},
                demands_[std::size_t(p)],
                to_take_[std::size_t(p)],
                picture(p).empty,
                no_castling_[std::size_t(p)]};
    }

    // The moves of colour c among the `remaining` half-moves, pos's side to move first.
    int moves_of(const Position& pos, Color c, int remaining) const {
        if (series_) return c == goal_side_ ? 1 : remaining;
        return pos.side_to_move() == c ? (remaining + 1) / 2 : remaining / 2;
    }

    const Picture& picture(int p) const { return (*pictures_)[p]; }
    int demand(int p, int id) const { return demand_of_[std::size_t(p) * units_.size() + id]; }

    // The moves unit id (now of walk w on s) needs for its demand in picture p
    // (picture_distance, from the demand's table).
    int distance_for(int p, int id, Walk w, Square s) const {
        return kind_distance(kind_of_[std::size_t(p) * units_.size() + id], w, s);
    }

    // A demand's kind: its table, twice, plus one for a checker that must move last (whose
    // distance 0 counts 2). Demands of one kind have the same distances.
    int kind_distance(int kind, Walk w, Square s) const {
        const int d = tables_[std::size_t(kind >> 1)].from(w, s);
        return d == 0 && (kind & 1) ? 2 : d;
    }

    // The distances of every demand, per picture, as a table by walk and square: the empty-
    // board distance_to, one table per colour, square and form. In series help the goal side
    // does not move before its last move, so its units stand still during the series; those
    // the picture keeps (and its king) are never taken: the series side's demands get the
    // still_distances table (distance.h) of their picture.
    void make_tables(const std::vector<Picture>& pictures) {
        tables_.clear();
        table_of_.assign(pictures.size() * units_.size(), -1);
        std::map<std::tuple<int, Square, int>, int> empty_board;
        for (std::size_t p = 0; p < pictures.size(); ++p)
            for (const Target& t : pictures[p].targets) {
                const Color c = units_[t.unit].color;
                if (series_ && c != goal_side_) continue;
                const auto key = std::make_tuple(int(c), t.square, int(t.form));
                auto it = empty_board.find(key);
                if (it == empty_board.end()) {
                    it = empty_board.emplace(key, int(tables_.size())).first;
                    StillDistances table;
                    for (Walk w : {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN})
                        for (int sq = 0; sq < SQUARE_NB; ++sq)
                            table.moves[(w - KING) * SQUARE_NB + sq] =
                                std::uint8_t(distance_to(w, c, Square(sq), t.square, t.form));
                    tables_.push_back(table);
                }
                table_of_[p * units_.size() + t.unit] = it->second;
            }
        if (series_) make_still_tables(pictures);
    }

    // make_tables' still_distances tables of the series side's demands.
    void make_still_tables(const std::vector<Picture>& pictures) {
        std::map<std::tuple<Bitboard, Bitboard, int, Square, int>, int> index;
        Bitboard goal_units = 0, goal_king = 0;
        for (const Unit& u : units_)
            if (u.color == goal_side_) {
                goal_units |= square_bb(u.square);
                if (u.walk == KING) goal_king |= square_bb(u.square);
            }
        for (std::size_t p = 0; p < pictures.size(); ++p) {
            Bitboard kept = goal_king;
            for (const Target& t : pictures[p].targets)
                if (units_[t.unit].color == goal_side_) kept |= square_bb(units_[t.unit].square);
            const Bitboard takeable = goal_units & ~kept;
            for (const Target& t : pictures[p].targets) {
                const Unit& u = units_[t.unit];
                if (u.color == goal_side_) continue;
                const auto key = std::make_tuple(kept, takeable, int(u.walk), t.square, int(t.form));
                auto it = index.find(key);
                if (it == index.end()) {
                    it = index.emplace(key, int(tables_.size())).first;
                    tables_.push_back(
                        still_distances(kept, takeable, u.color, u.walk, t.square, accepted_walks(u.walk, t.form)));
                }
                table_of_[p * units_.size() + t.unit] = it->second;
            }
        }
    }

    int need(int p, const Position& pos, Color c) const {
        int sum = 0;
        const Picture& pic = picture(p);
        for (const Target& t : pic.targets) {
            const int id = t.unit;
            if (units_[id].color != c) continue;
            const Square s = sq_of_[id];
            if (s == SQ_NONE) return kFar;
            sum += distance_for(p, id, pos.piece_on(s).walk, s);
        }
        return sum;
    }

    bool feasible(int p, const Position& pos, int remaining) const {
        return rest_feasible(p, pos, remaining, need(p, pos, WHITE), need(p, pos, BLACK));
    }

    // feasible() with the needs known.
    bool rest_feasible(int p, const Position& pos, int remaining, int need_white, int need_black) const {
        return rest_feasible(entry(p, need_white, need_black), pos, remaining, Budgets(*this, pos, remaining),
                             need_white, need_black);
    }

    // Each side's moves left (castling counted as a move more) and the goal side's, for
    // rest_feasible() over many pictures.
    struct Budgets {
        int side[2];
        int castling[2];  // the move more counted in side[c] for castling
        int goal;
        Budgets(const PictureSearch& s, const Position& pos, int remaining)
            : side{s.moves_of(pos, WHITE, remaining) + castling_bonus(pos, WHITE),
                   s.moves_of(pos, BLACK, remaining) + castling_bonus(pos, BLACK)},
              castling{castling_bonus(pos, WHITE), castling_bonus(pos, BLACK)},
              goal(s.moves_of(pos, s.goal_side_, remaining)) {}
        // The part of side[c] entry e cannot use: the castling move, where it spares nothing.
        int bonus(Color c, const Live::Entry& e) const { return (e.no_castling >> c) & castling[c]; }
    };

    bool rest_feasible(const Live::Entry& e, const Position& pos, int remaining, const Budgets& budgets, int need_white,
                       int need_black) const {
        const int p = e.picture;
        if (need_white > budgets.side[WHITE] - budgets.bonus(WHITE, e) ||
            need_black > budgets.side[BLACK] - budgets.bonus(BLACK, e))
            return false;
        // Each unit still to be taken needs a move of the goal side.
        if (popcount(e.to_take & alive_) > budgets.goal) return false;
        const Bitboard empty = e.empty;
        const int openings = popcount(empty & pos.pieces());
        if (openings > remaining && openings > remaining + extra_vacated(pos, empty, remaining)) return false;
        if (series_) {
            // Series play: the goal side moves only at the end, so it takes nothing before. A
            // unit of the other side with no target of its own in p that stands on a square p
            // needs empty, or on a target of one of its side's units, must move itself: one
            // move more than the needs count (a unit with a target counts in its distance).
            const Color c = ~goal_side_;
            int blockers = 0;
            for (Bitboard b = blocked_[p] & pos.pieces(c); b;) {
                const int id = id_at_[pop_lsb(b)];
                if (id < 0 || demand(p, id) < 0) ++blockers;
            }
            // Castling's move more counts in every picture here: it may vacate a blocker's
            // square (its rook's) with the king's move.
            if ((c == WHITE ? need_white : need_black) + blockers > budgets.side[c]) return false;
        }
        return true;
    }

    // Moves the unit ids along with move m of `mover` (before pos.do_move); returns the id
    // of the unit taken (-1: none) and sets the rook's squares of castling.
    struct Step {
        int taken = -1;
        Square taken_on = SQ_NONE;
        Square rook_from = SQ_NONE, rook_to = SQ_NONE;
    };
    Step apply(const Position& pos, const Move& m, Color mover) {
        Step s;
        if (m.kind == MoveKind::Castling) {
            const int rank = m.from / 8;
            const bool short_side = m.to % 8 > m.from % 8;
            s.rook_from = Square(rank * 8 + (short_side ? 7 : 0));
            s.rook_to = Square(rank * 8 + (short_side ? 5 : 3));
        } else {
            const Square cs = capture_square(m, mover);
            if (!pos.empty(cs) && pos.piece_on(cs).color != mover) {
                s.taken = id_at_[cs];
                s.taken_on = cs;
            }
        }
        if (s.taken >= 0) {
            move_unit(s.taken, SQ_NONE);
            id_at_[s.taken_on] = -1;
            alive_ &= ~(std::uint64_t(1) << s.taken);
        }
        const int id = id_at_[m.from];
        id_at_[m.from] = -1;
        if (s.rook_from != SQ_NONE) {
            const int rook = id_at_[s.rook_from];
            id_at_[s.rook_from] = -1;
            id_at_[s.rook_to] = rook;
            if (rook >= 0) move_unit(rook, s.rook_to);
        }
        id_at_[m.to] = id;
        if (id >= 0) move_unit(id, m.to);
        return s;
    }
    void revert(const Move& m, const Step& s) {
        const int id = id_at_[m.to];
        id_at_[m.to] = -1;
        if (s.rook_from != SQ_NONE) {
            const int rook = id_at_[s.rook_to];
            id_at_[s.rook_to] = -1;
            id_at_[s.rook_from] = rook;
            if (rook >= 0) move_unit(rook, s.rook_from);
        }
        id_at_[m.from] = id;
        if (id >= 0) move_unit(id, m.from);
        if (s.taken >= 0) {
            id_at_[s.taken_on] = s.taken;
            move_unit(s.taken, s.taken_on);
            alive_ |= std::uint64_t(1) << s.taken;
        }
    }

    // Which moves of the side to move keep some live picture within the mover's budget: its
    // need after the move (the moved unit's distance changed, if the picture places it) at
    // most the budget less the move. A unit that some picture with slack does not place may
    // make any move; other units only moves that bring them near enough in a picture placing
    // them (with no slack: nearer).
    struct Allowed {
        std::uint64_t free = 0;  // bit id: unit id may make any move
        // For a unit of the mover not free, the kinds of its demands in the live pictures,
        // each with the largest slack (the mover's budget less its need) among them:
        // kinds[begin[id] .. end[id]).
        std::array<int, 64> begin, end;
        std::vector<std::pair<int, int>> kinds;
    };
    // `castling`: the move more `budget` counts for castling (1 or 0), which the entries where
    // castling spares the mover nothing cannot use.
    void allowed_moves(const Live& live, int budget, int castling, Color mover, Allowed& out) {
        auto unusable = [&](const Live::Entry& e, Color c) { return (e.no_castling >> c) & castling; };
        const std::size_t n = live.size();
        out.free = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (budget - unusable(live.entries[i], mover) - live.entries[i].need[mover] >= 1)
                out.free |= ~live.entries[i].demands;
        const std::size_t units = units_.size();
        out.kinds.clear();
        for (std::uint64_t open = units_of_[mover] & alive_ & ~out.free; open; open &= open - 1) {
            const auto id = std::size_t(std::countr_zero(open));
            out.begin[id] = int(out.kinds.size());
            ++stamp_;
            const std::uint64_t bit = std::uint64_t(1) << id;
            for (std::size_t i = 0; i < n; ++i) {
                if (!(live.entries[i].demands & bit)) continue;
                const std::size_t p = std::size_t(live.entries[i].picture);
                const int kind = kind_of_[p * units + id];
                const int slack = budget - unusable(live.entries[i], mover) - live.entries[i].need[mover];
                if (kind_stamp_[std::size_t(kind)] != stamp_) {
                    kind_stamp_[std::size_t(kind)] = stamp_;
                    kind_slot_[std::size_t(kind)] = int(out.kinds.size());
                    out.kinds.emplace_back(kind, slack);
                } else {
                    int& best = out.kinds[std::size_t(kind_slot_[std::size_t(kind)])].second;
                    best = std::max(best, slack);
                }
            }
            out.end[id] = int(out.kinds.size());
        }
    }

    // balls_[(kind * 6 + walk - KING) * kLevels + d]: the squares from which a unit of that
    // walk needs at most d moves for a demand of that kind (kind_distance).
    static constexpr int kLevels = 16;
    void make_balls() {
        balls_.assign(2 * tables_.size() * 6 * kLevels, 0);
        for (std::size_t kind = 0; kind < 2 * tables_.size(); ++kind)
            for (int w = KING; w <= PAWN; ++w) {
                Bitboard* ball = &balls_[(kind * 6 + std::size_t(w - KING)) * kLevels];
                for (int t = 0; t < SQUARE_NB; ++t) {
                    const int d = kind_distance(int(kind), Walk(w), Square(t));
                    if (d < kLevels) ball[d] |= square_bb(Square(t));
                }
                for (int d = 1; d < kLevels; ++d) ball[d] |= ball[d - 1];
            }
    }

    // A superset of the squares allowed() lets each unit of `mover` go to, by departure
    // square (written on the squares of the mover's units alone): every square for a unit
    // free or now a pawn (whose promotions change its walk), the squares within its demands'
    // slack for the others, and the castling squares for a king that may castle. With
    // `last` (the play's last half-move), a unit a picture places must land on its square.
    void targets(const Position& pos, Color mover, const Allowed& a, bool last,
                 std::array<Bitboard, SQUARE_NB>& to) const {
        for (std::uint64_t b = units_of_[mover] & alive_; b; b &= b - 1) {
            const int id = std::countr_zero(b);
            const Square from = sq_of_[std::size_t(id)];
            const Walk w = pos.piece_on(from).walk;
            if (((a.free >> id) & 1) || w == PAWN) {
                to[from] = ~Bitboard(0);
                continue;
            }
            Bitboard t = 0;
            for (int k = a.begin[std::size_t(id)]; k < a.end[std::size_t(id)]; ++k) {
                const auto [kind, slack] = a.kinds[std::size_t(k)];
                // The last move lands on the square itself: the plain kind's distance 0.
                const int plain = last ? kind & ~1 : kind;
                const int level = last ? 0 : kind_distance(kind, w, from) + slack - 1;
                if (level >= kLevels) {
                    t = ~Bitboard(0);
                    break;
                }
                if (level >= 0) t |= balls_[(std::size_t(plain) * 6 + std::size_t(w - KING)) * kLevels + level];
            }
            to[from] = t;
        }
        const Square king = pos.king_square(mover);
        if (king != SQ_NONE && (pos.castling_rights() & square_bb(king)))
            to[king] |= square_bb(SQ_C1) | square_bb(SQ_G1) | square_bb(SQ_C8) | square_bb(SQ_G8);
    }

    // Whether move m may be played under some live picture (castling: always).
    bool allowed(const Position& pos, const Move& m, const Allowed& a) const {
        if (m.kind == MoveKind::Castling) return true;
        const int id = id_at_[m.from];
        if (id < 0) return false;
        if ((a.free >> id) & 1) return true;
        const Walk before = pos.piece_on(m.from).walk;
        const Walk after = m.kind == MoveKind::Promotion ? m.promotion : before;
        for (int k = a.begin[std::size_t(id)]; k < a.end[std::size_t(id)]; ++k) {
            const auto [kind, slack] = a.kinds[std::size_t(k)];
            if (kind_distance(kind, after, m.to) - kind_distance(kind, before, m.from) <= slack - 1) return true;
        }
        return false;
    }

    // The pictures of `live` still feasible in pos (after move m of the unit `moved`, of walk
    // `before` until then, that took unit `taken`), their needs updated by the mover's.
    void still_live(const Position& pos, int remaining, Color mover, const Move& m, int moved, Walk before, int taken,
                    const Live& live, Live& out) {
        out.clear();
        const Walk after = moved < 0 ? NO_WALK : pos.piece_on(m.to).walk;
        const Budgets budgets(*this, pos, remaining);
        const std::uint64_t taken_bit = taken >= 0 ? std::uint64_t(1) << taken : 0;
        const std::uint64_t moved_bit = moved >= 0 ? std::uint64_t(1) << moved : 0;
        const bool castling = m.kind == MoveKind::Castling;
        ++stamp_;  // delta_ below: the moved unit's change of distance per kind, made once
        for (const Live::Entry& e : live.entries) {
            const int p = e.picture;
            const std::uint64_t demands = e.demands;
            if (demands & taken_bit) continue;
            int white = e.need[WHITE], black = e.need[BLACK];
            if (castling) {
                white = need(p, pos, WHITE);
                black = need(p, pos, BLACK);
            } else if (demands & moved_bit) {
                const int kind = kind_of_[std::size_t(p) * units_.size() + std::size_t(moved)];
                if (kind_stamp_[std::size_t(kind)] != stamp_) {
                    kind_stamp_[std::size_t(kind)] = stamp_;
                    delta_[std::size_t(kind)] = kind_distance(kind, after, m.to) - kind_distance(kind, before, m.from);
                }
                (mover == WHITE ? white : black) += delta_[std::size_t(kind)];
            }
            if (rest_feasible(e, pos, remaining, budgets, white, black)) {
                out.entries.push_back(e);
                out.entries.back().need[WHITE] = white;
                out.entries.back().need[BLACK] = black;
            }
        }
    }

    // Whether a move of the goal side, to move in pos, reaches the goal and leaves a final
    // position that some picture of `live` fits: a unit that picture places stands on its
    // square after the move (it moved there, or stood there and stays), so the mover is a unit
    // free in a picture asking no move of it (need 0), or a unit moving onto the square a
    // picture gives it; castling always. A mate gives check (told without playing the move:
    // orthodox chess).
    bool last_move_reaches(Position& pos, const Live& live) {
        const Color mover = pos.side_to_move();
        Frame& frame = frames_[1];
        Allowed& a = frame.allowed;
        allowed_moves(live, 1, 0, mover, a);
        targets(pos, mover, a, true, frame.to);
        MoveList& list = frame.moves;
        generate_legal_to(pos, frame.to.data(), list);
        for (const Move& m : list) {
            if (m.kind != MoveKind::Castling) {
                const int id = id_at_[m.from];
                if (id < 0) continue;
                if (!((a.free >> id) & 1)) {
                    const Walk after = m.kind == MoveKind::Promotion ? m.promotion : pos.piece_on(m.from).walk;
                    bool onto = false;
                    for (int k = a.begin[std::size_t(id)]; k < a.end[std::size_t(id)] && !onto; ++k)
                        onto = tables_[std::size_t(a.kinds[std::size_t(k)].first >> 1)].from(after, m.to) == 0;
                    if (!onto) continue;
                }
            }
            if (goal_ == Goal::Mate && !gives_check(pos, m)) continue;
            UndoInfo u;
            pos.do_move(m, u);
            const bool reached = goal_reached(pos, u, goal_);
            pos.undo_move(m, u);
            if (reached) return true;
        }
        return false;
    }

    // Whether some play of `remaining` half-moves from pos reaches the goal (series: of
    // `remaining` moves of the side to move, the goal side passing and never left in check,
    // then the goal side's move reaching the goal); records pos in the guide when one does.
    // `live`: the pictures feasible here; the memo was asked before (child()).
    bool search(Position& pos, int remaining, const Live& live) {
        visit_();
        bool found = false;
        if (!series_ && remaining == 1) {
            // The last half-move: cheaper to test again than to remember (no memo).
            found = pos.side_to_move() == goal_side_ && last_move_reaches(pos, live);
            if (found) {
                guide_key(pos, remaining, key_);
                guide_.good.insert(key_);
            }
            return found;
        } else {
            const Color mover = pos.side_to_move();
            const int castling = castling_bonus(pos, mover);
            const int budget = moves_of(pos, mover, remaining) + castling;
            Frame& frame = frames_[std::size_t(remaining)];
            Live& next = frame.next;
            Allowed& permitted = frame.allowed;
            allowed_moves(live, budget, castling, mover, permitted);
            MoveList& list = frame.moves;
            targets(pos, mover, permitted, false, frame.to);
            generate_legal_to(pos, frame.to.data(), list);
            // The allowed moves; the memo entries of their children start loading at once.
            std::vector<Move>& moves = frame.allowed_list;
            moves.clear();
            const bool memo_next = series_ || remaining - 1 != 1;
            for (const Move& m : list)
                if (allowed(pos, m, permitted)) {
                    moves.push_back(m);
                    if (memo_next && m.kind != MoveKind::Castling)
                        memo_.prefetch(child_hash(pos, m, mover, remaining - 1));
                }
            for (const Move& m : moves) {
                const Walk before = pos.piece_on(m.from).walk;
                const int moved = id_at_[m.from];
                const Step s = apply(pos, m, mover);
                UndoInfo u;
                pos.do_move(m, u);
                if (series_ && remaining == 1) {
                    if (goal_reachable_in_one(pos, goal_)) found = true;
                } else if (series_) {
                    if (!pos.in_check()) {
                        // The goal side passes: the series side moves again (undo_move
                        // restores the key and the en passant square).
                        pos.set_side_to_move_for_analysis(mover);
                        if (child(pos, remaining - 1, mover, m, moved, before, s.taken, live, next)) found = true;
                        pos.set_side_to_move_for_analysis(~mover);
                    }
                } else if (!(mover == goal_side_ && goal_reached(pos, u, goal_))) {
                    // A move of the goal side that reaches the goal before the end ends the play.
                    if (child(pos, remaining - 1, mover, m, moved, before, s.taken, live, next)) found = true;
                }
                pos.undo_move(m, u);
                revert(m, s);
            }
        }
        if (found) {
            guide_key(pos, remaining, key_);
            guide_.good.insert(key_);
        }
        return found;
    }

    // search() of the position after move m with the pictures still live there (still_live;
    // none: no play), or its result in the memo. `next`: scratch space.
    bool child(Position& pos, int remaining, Color mover, const Move& m, int moved, Walk before, int taken,
               const Live& live, Live& next) {
        if (!series_ && remaining == 1) {
            still_live(pos, remaining, mover, m, moved, before, taken, live, next);
            return !next.empty() && search(pos, remaining, next);
        }
        memo_key(pos, remaining);
        LineMap::Ticket ticket;
        const std::uint64_t h = memo_hash(pos, remaining);
        LineMap& memo = memo_key_.size() <= memo_.capacity() ? memo_ : memo_long_;
        const int known = memo.find_or_add(memo_key_, h, ticket);
        if (known >= 0) return known == 1;
        still_live(pos, remaining, mover, m, moved, before, taken, live, next);
        const bool found = !next.empty() && search(pos, remaining, next);
        if (!memo.current(ticket)) memo_key(pos, remaining);
        memo.set(ticket, memo_key_, h, found ? 1 : 0);
        return found;
    }

    // A hash of memo_key(pos, remaining) (equal keys, equal hashes): of the units' squares
    // (units_hash_), the side to move and the half-moves left. Castling rights, en passant and
    // promotions seldom tell keys apart and are left out, so a child's hash is known before
    // its move is played (child_hash).
    std::uint64_t memo_hash(const Position& pos, int remaining) const {
        return hash_of(units_hash_ ^ std::uint64_t(pos.side_to_move()), remaining);
    }
    static std::uint64_t hash_of(std::uint64_t keys, int remaining) {
        std::uint64_t h = keys ^ (std::uint64_t(remaining) * 0x9E3779B97F4A7C15ull);
        h ^= h >> 31;
        h *= 0xff51afd7ed558ccdull;
        return h ^ (h >> 29);
    }

    // memo_hash() of the child after move m (no castling) of `mover` with `remaining`
    // half-moves left.
    std::uint64_t child_hash(const Position& pos, const Move& m, Color mover, int remaining) const {
        std::uint64_t units = units_hash_;
        const int id = id_at_[m.from];
        if (id >= 0) units ^= unit_hash(id, m.from) ^ unit_hash(id, m.to);
        const Square cs = capture_square(m, mover);
        const int taken = pos.empty(cs) ? -1 : id_at_[cs];
        if (taken >= 0) units ^= unit_hash(taken, cs) ^ unit_hash(taken, SQ_NONE);
        const Color next = series_ ? mover : ~mover;
        return hash_of(units ^ std::uint64_t(next), remaining);
    }

    // units_hash_'s share of unit id on square s (SQ_NONE: taken).
    static std::uint64_t unit_hash(int id, Square s) {
        std::uint64_t h = (std::uint64_t(id) << 8 | std::uint64_t(s == SQ_NONE ? 64 : s)) * 0xc4ceb9fe1a85ec53ull;
        h ^= h >> 33;
        return h * 0xff51afd7ed558ccdull;
    }

    // Moves unit id to square `to` (SQ_NONE: taken) in sq_of_ and units_hash_.
    void move_unit(int id, Square to) {
        units_hash_ ^= unit_hash(id, sq_of_[std::size_t(id)]) ^ unit_hash(id, to);
        sq_of_[std::size_t(id)] = to;
        sq_bytes_[std::size_t(id)] = char(to == SQ_NONE ? 64 : to);
    }

    // The memo's key: the half-moves left, the side to move, the en passant square, the
    // castling rights (one byte when they lie on the corner and king squares only), the square
    // of every unit, then the walk of every unit first a pawn when one has promoted. The units
    // (their colours fixed) on their squares in their walks are the board, so the key is
    // exact; it also tells apart positions alike but for which of two alike units stands
    // where, which differ in their budgets. The fourth byte says which optional parts follow.
    void memo_key(const Position& pos, int remaining) {
        constexpr Bitboard corners = square_bb(SQ_A1) | square_bb(SQ_E1) | square_bb(SQ_H1) | square_bb(SQ_A8) |
                                     square_bb(SQ_E8) | square_bb(SQ_H8);
        char* k = memo_buf_.data();
        *k++ = char(remaining);
        *k++ = char(pos.side_to_move());
        *k++ = char(pos.ep_square());
        const Bitboard rights = pos.castling_rights();
        char* tag = k++;
        *tag = 0;
        if (rights & ~corners) {
            *tag = 1;
            std::memcpy(k, &rights, sizeof rights);
            k += sizeof rights;
        } else if (rights) {
            *tag = char(0x80 | (rights & 1) | ((rights >> 3) & 2) | ((rights >> 5) & 4) | ((rights >> 53) & 8) |
                        ((rights >> 56) & 16) | ((rights >> 58) & 32));
        }
        std::memcpy(k, sq_bytes_.data(), sq_bytes_.size());  // a fixed size: no call
        k += sq_of_.size();
        bool promoted = false;
        for (int id : pawn_units_) {
            const Square s = sq_of_[std::size_t(id)];
            if (s != SQ_NONE && pos.piece_on(s).walk != PAWN) promoted = true;
        }
        if (promoted) {
            *tag = char(*tag | 0x40);
            for (int id : pawn_units_) {
                const Square s = sq_of_[std::size_t(id)];
                *k++ = char(s == SQ_NONE ? NO_WALK : pos.piece_on(s).walk);
            }
        }
        memo_key_ = std::string_view(memo_buf_.data(), std::size_t(k - memo_buf_.data()));
    }

    const Position& root_;
    const std::vector<Unit>& units_;
    Color goal_side_;
    Goal goal_;
    HelpGuide& guide_;
    const std::function<void()>& visit_;
    const std::vector<Picture>* pictures_ = nullptr;
    std::vector<std::int16_t> demand_of_;  // [picture][unit]: index of its target, -1: none
    // [picture]: the squares it needs empty and its other side's targets.
    std::vector<Bitboard> blocked_;
    std::array<int, 64> id_at_{};
    std::vector<Square> sq_of_;
    std::array<char, 64> sq_bytes_{};     // sq_of_ as memo_key() writes it (64: taken)
    std::uint64_t alive_ = 0;             // bit id: unit id not taken
    std::uint64_t units_hash_ = 0;        // XOR of unit_hash(id, sq_of_[id])
    std::uint64_t units_of_[2] = {0, 0};  // bit id: unit id is of that colour
    std::vector<std::uint64_t> demands_;  // [picture]: bit id when it places unit id
    std::vector<std::uint64_t> to_take_;  // [picture]: bit id when unit id must be taken
    std::vector<int> no_castling_;        // [picture]: bit c when castling spares colour c no move
    // A node's scratch space, one per number of half-moves left (search() recurses with fewer).
    struct Frame {
        Live next;
        Allowed allowed;
        MoveList moves;
        std::vector<Move> allowed_list;
        std::array<Bitboard, SQUARE_NB> to;  // targets()
    };
    std::vector<Frame> frames_;
    bool series_ = false;
    std::vector<StillDistances> tables_;  // the demands' distance tables (make_tables)
    std::vector<int> table_of_;           // [picture][unit]: its table, -1: none
    std::vector<int> kind_of_;            // [picture][unit]: its demand's kind, -1: none
    std::vector<Bitboard> balls_;         // make_balls()
    // Per kind, scratch of allowed_moves() (its entry in Allowed::kinds) and still_live() (the
    // moved unit's change of distance): valid where kind_stamp_ is stamp_.
    std::vector<int> kind_slot_, delta_;
    std::vector<std::uint64_t> kind_stamp_;
    std::uint64_t stamp_ = 0;
    LineMap memo_, memo_long_;     // child()'s: whether a play from a node reaches the goal
    std::vector<int> pawn_units_;  // the units first pawns (memo_key)
    std::string key_;
    // memo_key()'s key, in memo_buf_: at most 4 + 8 bytes and two per unit (64 at most).
    std::array<char, 4 + 8 + 2 * 64> memo_buf_{};
    std::string_view memo_key_;
};

// Whether every demand of picture a is one of b's (then each play fitting b fits a).
bool demands_subset(const Picture& a, const Picture& b) {
    if ((a.empty & ~b.empty) || a.targets.size() > b.targets.size()) return false;
    if (a.moving_checker >= 0 && a.moving_checker != b.moving_checker) return false;
    if (!std::includes(b.captured.begin(), b.captured.end(), a.captured.begin(), a.captured.end())) return false;
    std::size_t j = 0;
    for (const Target& t : a.targets) {  // both sorted by unit
        while (j < b.targets.size() && b.targets[j].unit < t.unit) ++j;
        if (j == b.targets.size() || b.targets[j].unit != t.unit || b.targets[j].square != t.square ||
            b.targets[j].form != t.form)
            return false;
    }
    return true;
}

// The pictures no other picture's demands are a part of (searching those finds every play
// the others would), in their first order. Pictures with the mated king on different
// squares never contain each other: each square's are compared apart.
std::vector<Picture> minimal_pictures(std::vector<Picture> all, int king) {
    auto king_square = [king](const Picture& p) {
        for (const Target& t : p.targets)
            if (t.unit == king) return int(t.square);
        return -1;
    };
    std::vector<std::size_t> order(all.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        return all[x].targets.size() + popcount(all[x].empty) < all[y].targets.size() + popcount(all[y].empty);
    });
    // A signature of each picture's demands, one bit per target and per unit to be taken
    // (hashed into 64): a picture whose bits are not all among another's is no part of it.
    std::vector<std::uint64_t> sig(all.size(), 0);
    for (std::size_t i = 0; i < all.size(); ++i) {
        for (const Target& t : all[i].targets)
            sig[i] |= std::uint64_t(1) << ((t.unit * 73 + int(t.square) * 11 + int(t.form) * 5) & 63);
        for (int c : all[i].captured) sig[i] |= std::uint64_t(1) << ((c * 29 + 17) & 63);
    }
    std::vector<bool> keep(all.size(), false);
    // The pictures kept so far, filed by the king's square and one of their targets (the
    // checker's, else the first but the king's; none: only the king): a picture whose
    // demands are among b's is filed under the king's square and a target of b. Signatures
    // and empty squares side by side (the screening reads those alone).
    struct Kept {
        std::vector<std::uint64_t> sig, empty;
        std::vector<std::size_t> index;
    };
    auto file_key = [](int king_sq, const Target* t) {
        if (!t) return std::uint64_t(king_sq + 1);
        return std::uint64_t(king_sq + 1) | std::uint64_t(t->unit + 1) << 8 | std::uint64_t(t->square) << 16 |
               std::uint64_t(t->form) << 24;
    };
    auto filed_under = [&](const Picture& p) -> const Target* {
        if (p.checker.unit >= 0) return &p.checker;
        for (const Target& t : p.targets)
            if (t.unit != king) return &t;
        return nullptr;
    };
    std::unordered_map<std::uint64_t, Kept> kept;
    for (std::size_t i : order) {
        const int ks = king_square(all[i]);
        const std::uint64_t si = sig[i], ei = all[i].empty;
        bool covered = false;
        auto screen = [&](std::uint64_t key) {
            const auto it = kept.find(key);
            if (it == kept.end()) return;
            const Kept& group = it->second;
            for (std::size_t k = 0; k < group.index.size() && !covered; ++k)
                if (!(group.sig[k] & ~si) && !(group.empty[k] & ~ei) && demands_subset(all[group.index[k]], all[i]))
                    covered = true;
        };
        screen(file_key(ks, nullptr));
        for (std::size_t t = 0; t < all[i].targets.size() && !covered; ++t)
            if (all[i].targets[t].unit != king) screen(file_key(ks, &all[i].targets[t]));
        if (covered) continue;
        Kept& group = kept[file_key(ks, filed_under(all[i]))];
        group.sig.push_back(si);
        group.empty.push_back(ei);
        group.index.push_back(i);
        keep[i] = true;
    }
    std::vector<Picture> out;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (keep[i]) out.push_back(std::move(all[i]));
    return out;
}

// Series help ending in mate: the goal side's only move is the mating move, so a checking
// pawn that must make it and stands diagonally behind its square takes a unit of the series
// side standing there (no en passant: a square of the pawn's sixth rank is left alone). Each
// such picture becomes one picture per unit of the series side it leaves free that could be
// the victim, the victim standing on the checker's square in any walk; pictures with no free
// unit go.
std::vector<Picture> with_victims(std::vector<Picture> pictures, const std::vector<Unit>& units, Color goal_side) {
    std::vector<Picture> out;
    for (Picture& p : pictures) {
        const int checker = p.moving_checker;
        Square t = SQ_NONE;
        if (checker >= 0 && units[checker].walk == PAWN)
            for (const Target& target : p.targets)
                if (target.unit == checker) t = target.square;
        if (t == SQ_NONE || !(pawn_attacks(goal_side, units[checker].square) & square_bb(t)) ||
            relative_rank(goal_side, rank_of(t)) == 5) {
            out.push_back(std::move(p));
            continue;
        }
        std::vector<bool> placed(units.size(), false);
        for (const Target& target : p.targets) placed[target.unit] = true;
        for (int id = 0; id < int(units.size()); ++id) {
            if (placed[id] || units[id].color == goal_side || units[id].walk == KING) continue;
            if (std::find(p.captured.begin(), p.captured.end(), id) != p.captured.end()) continue;
            Picture v = p;
            v.targets.push_back({id, t, Form::Any});
            std::sort(v.targets.begin(), v.targets.end());
            out.push_back(std::move(v));
        }
    }
    return out;
}

}  // namespace

void guide_key(const Position& pos, int remaining, std::string& out) {
    pos.exact_key(out);
    out.push_back(char(remaining));
}

namespace {

// The units of root and the minimal pictures (victims added) of a play of `len`; false where
// the search does not apply or the pictures are more than max_pictures.
bool make_pictures(const Position& root, int len, bool series, Color goal_side, Goal goal, std::size_t max_pictures,
                   std::vector<Unit>& units, std::vector<Picture>& pictures) {
    if (goal != Goal::Mate && goal != Goal::Stalemate) return false;
    const Color defender = ~goal_side;
    if (root.has_rules() || root.has_fairy() || root.king_square(defender) == SQ_NONE || len < 1) return false;
    units.clear();
    for (Bitboard b = root.pieces(); b;) {
        const Square s = pop_lsb(b);
        units.push_back({s, root.piece_on(s).walk, root.piece_on(s).color});
    }
    if (series && root.side_to_move() == goal_side) return false;
    const int a_moves = series ? 1 : root.side_to_move() == goal_side ? (len + 1) / 2 : len / 2;
    const int d_moves = series ? len : len - a_moves;
    std::vector<Picture> all;
    PictureMaker maker(root, units, goal_side, goal, a_moves + castling_bonus(root, goal_side),
                       d_moves + castling_bonus(root, defender));
    if (!maker.run([&](const Picture& p) { all.push_back(p); }, max_pictures)) return false;
    int king = -1;
    for (int i = 0; i < int(units.size()); ++i)
        if (units[i].color == defender && units[i].walk == KING) king = i;
    pictures = minimal_pictures(std::move(all), king);
    if (series && goal == Goal::Mate) pictures = with_victims(std::move(pictures), units, goal_side);
    return true;
}

}  // namespace

struct HelpPictureCache::Data {
    std::vector<Unit> units;
    std::vector<Picture> pictures;
};

HelpPictureCache::HelpPictureCache() = default;
HelpPictureCache::~HelpPictureCache() = default;

bool build_help_guide(const Position& root, int len, bool series, Color goal_side, Goal goal, HelpGuide& guide,
                      const std::function<void()>& visit, std::size_t max_pictures) {
    std::vector<Unit> units;
    std::vector<Picture> pictures;
    if (!make_pictures(root, len, series, goal_side, goal, max_pictures, units, pictures)) return false;
    PictureSearch search(root, units, goal_side, goal, guide, visit);
    search.run(pictures, len, series);
    return true;
}

bool build_help_guide(const Position& root, int len, int longest, bool series, Color goal_side, Goal goal,
                      HelpGuide& guide, HelpPictureCache& cache, const std::function<void()>& visit,
                      std::size_t max_pictures) {
    {
        std::lock_guard<std::mutex> lock(cache.mutex_);
        if (!cache.tried_) {
            cache.tried_ = true;
            auto data = std::make_unique<HelpPictureCache::Data>();
            if (longest > len &&
                make_pictures(root, longest, series, goal_side, goal, max_pictures, data->units, data->pictures))
                cache.data_ = std::move(data);
        }
    }
    if (!cache.data_) return build_help_guide(root, len, series, goal_side, goal, guide, visit, max_pictures);
    PictureSearch search(root, cache.data_->units, goal_side, goal, guide, visit);
    search.run(cache.data_->pictures, len, series);
    return true;
}

}  // namespace rebirth
