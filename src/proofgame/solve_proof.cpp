#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/exact_set.h"
#include "core/parallel.h"
#include "proofgame/proof_search.h"
#include "rebirth/legality.h"
#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/popeye_order.h"
#include "rebirth/proof_bound.h"
#include "rebirth/proof_captures.h"
#include "rebirth/proof_passage.h"
#include "rebirth/proof_rebirth.h"
#include "rebirth/proof_tempo.h"
#include "rebirth/rules.h"
#include "rules/rebirth_square.h"
#include "solve/solve_internal.h"

namespace rebirth {

namespace {

// Whether two squares hold the same unit as Popeye's proof-game comparison sees it: walk,
// colour and declared attributes (the "promoted" mark is play history, not part of a unit).
bool same_unit(Piece a, Piece b) {
    if (a.walk != b.walk) return false;
    if (a.walk == NO_WALK) return true;
    return a.color == b.color && (a.flags & ~PF_PROMOTED) == (b.flags & ~PF_PROMOTED);
}

}  // namespace

bool board_matches(const Position& pos, const Board& target) {
    for (int s = 0; s < SQUARE_NB; ++s)
        if (!same_unit(pos.piece_on(Square(s)), target[s])) return false;
    return true;
}

namespace {

// The orthodox game array: the start of every dia stipulation.
Board game_array() {
    Board b{};
    for (int f = 0; f < 8; ++f) {
        b[make_square(f, 0)] = make_piece(WHITE, BACK_RANK_WALKS[f]);
        b[make_square(f, 1)] = make_piece(WHITE, PAWN);
        b[make_square(f, 6)] = make_piece(BLACK, PAWN);
        b[make_square(f, 7)] = make_piece(BLACK, BACK_RANK_WALKS[f]);
    }
    return b;
}

// How far `pos` is from `target`: the squares whose contents differ, and per side the
// squares where the target holds one of its units and the board does not.
struct Distance {
    int squares = 0;
    std::array<int, COLOR_NB> missing{0, 0};
    std::array<int, COLOR_NB> excess{0, 0};  // units on the board minus units in the target
};

Distance distance(const Position& pos, const Board& target) {
    Distance d;
    for (int s = 0; s < SQUARE_NB; ++s) {
        const Piece want = target[s], have = pos.piece_on(Square(s));
        if (have.walk != NO_WALK) ++d.excess[have.color];
        if (want.walk != NO_WALK) --d.excess[want.color];
        if (same_unit(have, want)) continue;
        ++d.squares;
        if (want.walk != NO_WALK) ++d.missing[want.color];
    }
    return d;
}

// The least number of moves each side still needs, valid only without rebirth rules: a unit
// reaches a square only by a move of its own side, one square per move, except that one
// castling per side places two units; and each surplus enemy unit needs one capture.
std::array<int, COLOR_NB> moves_needed(const Position& pos, const Distance& d) {
    std::array<int, COLOR_NB> need = d.missing;
    const Bitboard rights = pos.castling_rights();
    for (Color c : {WHITE, BLACK}) {
        const Bitboard king = square_bb(c == WHITE ? SQ_E1 : SQ_E8);
        const Bitboard rooks = c == WHITE ? square_bb(SQ_A1) | square_bb(SQ_H1) : square_bb(SQ_A8) | square_bb(SQ_H8);
        if ((rights & king) && (rights & rooks) && need[c] >= 2) --need[c];
    }
    for (Color c : {WHITE, BLACK}) need[c] = std::max(need[c], d.excess[~c]);
    return need;
}

// The most squares one half-move can change under the rules of `pos`, or 0 when no safe
// bound is known. Orthodox: castling changes 4 (en passant 3). Rebirth rules that place at
// most the mover and one captured unit (capturer and captured under Circe + AntiCirce)
// change at most departure, arrival, en passant victim and two rebirth squares. Parrain
// and ContraParrain place the unit taken one half-move earlier: castling's 4 squares and
// that one rebirth (the unit taken now waits); WaitCapture one rebirth too (the unit taken
// before). Anti-Mars castling may also lift a rook onto its corner and leave it there, the
// king castling from anywhere ("[bRb5->a8]0-0" from e8: e8, g8, h8, f8, b5 and a8 change): 6.
// Chained, buried or lifted rebirths and the extra effects are left unbounded.
int max_squares_per_move(const Position& pos) {
    if (!pos.has_rules()) return 4;
    const RuleSet& r = *pos.rules();
    if (r.atom || r.kamikaze || r.alsatian || r.hydra) return 0;
    if (r.occupied == Occupied::Volcanic || r.occupied == Occupied::Parachute || r.occupied == Occupied::Ultra)
        return 0;
    if (r.reborn == Reborn::Both &&
        (r.both_capturer.occupied == Occupied::Volcanic || r.both_capturer.occupied == Occupied::Parachute ||
         r.both_capturer.occupied == Occupied::Ultra))
        return 0;
    return r.antimars ? 6 : 5;
}

// The most squares the next half-move of pos can change, at most max_change (the bound for
// any half-move under its rules): its departure and arrival squares; castling's four when the
// side to move may castle now (a right, and nothing between king and rook); an en passant
// victim's square when en passant is open; the one rebirth square of a capture where the
// captured unit (Circe) or the capturer (AntiCirce) is reborn at once (none under Parrain,
// whose rebirth waits), and a Parrain rebirth pending from the half-move before. Rules with
// more effects keep max_change.
// The same for `side` to move with the units on `occupied`, an en passant capture open or not
// (`ep`) and a Parrain rebirth pending or not, under pos's rules.
int change_bound(const Position& pos, Color side, Bitboard occupied, bool ep, bool pending, int max_change) {
    const unsigned sides = pos.castling_sides(side);
    const int rank = side == WHITE ? 0 : 7;
    const bool castles = ((sides & 1u) && !(occupied & between_bb(make_square(4, rank), make_square(0, rank)))) ||
                         ((sides & 2u) && !(occupied & between_bb(make_square(4, rank), make_square(7, rank))));
    if (!pos.has_rules()) return std::min(max_change, std::max(castles ? 4 : 2, 2 + int(ep)));
    const RuleSet& r = *pos.rules();
    if (r.reborn == Reborn::Both || r.atom || r.kamikaze || r.hydra || r.mars || r.antimars ||
        (r.occupied != Occupied::Relaxed && r.occupied != Occupied::Strict && r.occupied != Occupied::Assassin))
        return max_change;
    const int rebirth_now = r.reborn != Reborn::None && !parrain_like(r) ? 1 : 0;
    return std::min(max_change, std::max(castles ? 4 : 2, 2 + int(ep) + rebirth_now) + int(pending));
}

int next_move_change(const Position& pos, int max_change) {
    const bool pending = pos.has_rules() && parrain_like(*pos.rules()) && !pos.parrain_piece().empty();
    return change_bound(pos, pos.side_to_move(), pos.pieces(), pos.ep_square() != SQ_NONE, pending, max_change);
}

// Whether a plain move (Normal, to an empty square) changes only its departure and arrival
// squares in pos: without rules, or under rules whose non-captures are orthodox moves (not
// Mars or Anti-Mars, no Parrain rebirth waiting for this move) and that have a square bound.
bool plain_moves_change_two(const Position& pos, int max_change) {
    if (max_change == 0) return false;
    if (!pos.has_rules()) return true;
    const RuleSet& r = *pos.rules();
    return !r.mars && !r.antimars && pos.parrain_piece().empty();
}

// The square count of the search's first bound (distance(), d for pos) after the plain move m,
// and next_move_change there: only m's two squares change (plain_moves_change_two), the other
// side moves next, and en passant is open at most after a double step.
std::pair<int, int> squares_after(const Position& pos, const Board& target, const Distance& d, const Move& m,
                                  int max_change) {
    const Piece mover = pos.piece_on(m.from);
    int squares = d.squares;
    squares -= !same_unit(mover, target[m.from]) + (target[m.to].walk != NO_WALK);
    squares += (target[m.from].walk != NO_WALK) + !same_unit(mover, target[m.to]);
    const bool double_step = mover.walk == PAWN && std::abs(int(m.to) - int(m.from)) == 16;
    const Bitboard occupied = pos.pieces() ^ square_bb(m.from) ^ square_bb(m.to);
    return {squares, change_bound(pos, ~pos.side_to_move(), occupied, double_step, false, max_change)};
}

}  // namespace

void position_code(const Position& pos, std::string& k) {
    // The occupancy, then a byte per occupied square (walk, colour, flags) in square order:
    // as exact as a byte for every square, and half as long to hash, compare and store.
    std::array<char, 8 + SQUARE_NB + 2 + 8 + SQUARE_NB + 3 + 2 * MAX_BURIED> buf;
    char* out = buf.data();
    const auto put = [&out](const void* bytes, size_t n) {
        std::memcpy(out, bytes, n);
        out += n;
    };
    const auto unit = [](Piece p) { return static_cast<char>(p.walk | (p.color << 4) | (p.flags << 5)); };
    const Bitboard occupied = pos.pieces();
    put(&occupied, sizeof occupied);
    for (Bitboard b = occupied; b; b &= b - 1) *out++ = unit(pos.piece_on(Square(__builtin_ctzll(b))));
    *out++ = static_cast<char>(pos.side_to_move());
    *out++ = static_cast<char>(pos.ep_square());
    const Bitboard rights = pos.castling_rights();
    put(&rights, sizeof rights);
    if (pos.has_rules()) {
        for (Bitboard b = occupied; b; b &= b - 1) *out++ = static_cast<char>(pos.origin(Square(__builtin_ctzll(b))));
        *out++ = static_cast<char>(pos.parrain_square());
        *out++ = unit(pos.parrain_piece());
        *out++ = static_cast<char>(pos.buried_count());
        for (int i = 0; i < pos.buried_count(); ++i) {
            const Buried& u = pos.buried(i);
            *out++ = static_cast<char>(u.square);
            *out++ = unit(u.piece);
        }
    }
    k.assign(buf.data(), static_cast<size_t>(out - buf.data()));
}

namespace {

std::string position_code(const Position& pos) {
    std::string k;
    position_code(pos, k);
    return k;
}

// The target's units as bitboards, by colour and walk, when every unit is plain (no
// attribute but the "promoted" mark, which same_unit ignores): then distance() and
// board_matches() compare bitboards.
struct TargetBits {
    bool plain = false;
    std::array<std::array<Bitboard, WALK_NB>, COLOR_NB> by{};
    std::array<Bitboard, COLOR_NB> color{0, 0};
};

TargetBits target_bits(const Board& target) {
    TargetBits t;
    t.plain = true;
    for (int s = 0; s < SQUARE_NB; ++s) {
        const Piece p = target[s];
        if (p.walk == NO_WALK) continue;
        if ((p.flags & ~PF_PROMOTED) != 0) t.plain = false;
        t.by[p.color][p.walk] |= square_bb(Square(s));
        t.color[p.color] |= square_bb(Square(s));
    }
    return t;
}

// Whether pos has no unit with an attribute (other than "promoted").
bool plain_units(const Position& pos) {
    for (Bitboard b = pos.pieces(); b;)
        if ((pos.piece_on(pop_lsb(b)).flags & ~PF_PROMOTED) != 0) return false;
    return true;
}

// distance() on bitboards (t.plain and pos without attributes).
Distance distance_bits(const Position& pos, const TargetBits& t) {
    Distance d;
    Bitboard differ = 0;
    std::array<Bitboard, COLOR_NB> matching{0, 0};
    for (Color c : {WHITE, BLACK}) {
        for (int w = KING; w <= PAWN; ++w) {
            const Bitboard have = pos.pieces(c, Walk(w)), want = t.by[c][w];
            differ |= have ^ want;
            matching[c] |= have & want;
        }
        d.excess[c] = popcount(pos.pieces(c)) - popcount(t.color[c]);
        d.missing[c] = popcount(t.color[c] & ~matching[c]);
    }
    d.squares = popcount(differ);
    return d;
}

// The squares move m empties or fills: its departure and arrival squares, and all squares for
// castling and en passant (not worked out).
Bitboard touched_by(const Move& m) {
    if (m.kind == MoveKind::Castling || m.kind == MoveKind::EnPassant) return ~Bitboard(0);
    return square_bb(m.from) | square_bb(m.to);
}

// What one run (the play, or the other side's play of a duplex) searches for.
struct Run {
    const SolveContext* ctx = nullptr;
    const Board* target = nullptr;
    TargetBits bits;               // bits.plain: the bitboard comparisons apply (with plain units on the board)
    const char* mark = "";         // " dia" or " a=>b"
    Color first = WHITE;           // the side that plays the first half-move (and carries the numbers)
    bool bound = false;            // moves_needed applies
    bool distances = false;        // proof_bound.h applies
    int max_change = 0;            // max_squares_per_move (0: no bound)
    bool arrival_changes = false;  // a move always changes its arrival square (last_move_arrives)
    const RebirthBound* rebirth = nullptr;  // the rebirth rules' bounds (proof_rebirth.h), when they apply
    // Floors of pairs (proof_passage.h) worked out at the play's start (for its longest
    // length, holding for the shorter ones): the unit then on `unit` makes at least `moves`
    // moves to end on `to`.
    const std::vector<UnitCostFloor>* floors = nullptr;
};

// Whether every move changes the contents of its arrival square under the rules of `pos`
// with plain units: the mover arrives there, or under AntiCirce it leaves the square empty
// (the captured unit was there; not for en passant, which last_move() plays too). Not where
// the square may get back what it held: a capturer that vanishes or is reborn elsewhere while
// the captured unit is reborn on the capture square (Kamikaze, Circe with AntiCirce, and
// Assassin and Ultra, where a unit taken on its own rebirth square removes the capturer:
// g3*f2[+wPf2] leaves f2 as it was), Anti-Mars (a non-capture from the rebirth square may land
// on the square the mover stands on: g5-g7-g5 changes no square), and the multi-unit effects
// (Atom, Hydra) and unbounded ones (max_squares_per_move 0) are left out.
bool last_move_arrives(const Position& pos, int max_change) {
    if (max_change == 0) return false;
    if (!pos.has_rules()) return true;
    const RuleSet& r = *pos.rules();
    return r.reborn != Reborn::Both && !r.kamikaze && !r.atom && !r.hydra && !r.antimars &&
           r.occupied != Occupied::Assassin && r.occupied != Occupied::Ultra;
}

// The squares where pos differs from the target (t.plain and pos without attributes).
Bitboard differing_bits(const Position& pos, const TargetBits& t) {
    Bitboard differ = 0;
    for (Color c : {WHITE, BLACK})
        for (int w = KING; w <= PAWN; ++w) differ |= pos.pieces(c, Walk(w)) ^ t.by[c][w];
    return differ;
}

// Popeye's text of lines played from `root` (the play's start), one after another: the
// previous line's common prefix (positions, move numbers, text) is not played again.
class LineText {
  public:
    LineText(const Run& run, const Position& root) : run_(run) { plies_.push_back({root, 0, 1}); }
    // "\n  1.e2-e4 e7-e5   2.Sg1-f3 dia", numbered from the run's first side.
    std::string render(const MoveLine& moves) {
        if (moves.empty()) return "\n";
        size_t same = 0;
        while (same < moves.size() && same < last_.size() && same + 1 < plies_.size() && moves[same] == last_[same])
            ++same;
        plies_.resize(same + 1);
        text_.resize(plies_.back().length);
        for (size_t i = same; i < moves.size(); ++i) {
            Ply next = plies_.back();
            if (i > 0) text_ += ' ';
            append_line_move(text_, next.pos, moves[i], run_.ctx->problem.language,
                             next.pos.side_to_move() == run_.first, next.number, true);
            next.length = text_.size();
            plies_.push_back(std::move(next));
        }
        last_ = moves;
        return "\n" + text_ + run_.mark;
    }

  private:
    struct Ply {
        Position pos;       // after the moves so far
        size_t length = 0;  // of text_ then
        int number = 1;     // the next move number
    };
    const Run& run_;
    std::vector<Ply> plies_;
    std::string text_;
    MoveLine last_;
};

// Popeye's text of the line `moves` played from `root` (the play's start position):
// "\n  1.e2-e4 e7-e5   2.Sg1-f3 dia", numbered from the run's first side.
std::string render_line(const Run& run, const Position& root, const MoveLine& moves) {
    return LineText(run, root).render(moves);
}

}  // namespace

// The bounds' caches of one search at a time. Their values depend only on the position (and
// the play's target and rules), so the searches of a play hand them on (ProofFailures::acquire).
struct ProofCaches {
    ProofCaches(const Board& target, const RebirthBound* bound)
        : needed(target), walls(target), captures(target), progress(target) {
        if (bound) rebirth.emplace(*bound, target);
    }
    MovesNeededCache needed;                   // proof_moves_needed, remembered
    SettledWallsCache walls;                   // settled_walls, remembered
    CaptureBoundCache captures;                // proof_captures_feasible's assignments, remembered
    MoveProgressCache progress;                // MoveProgress, remembered
    std::optional<RebirthBoundCache> rebirth;  // run.rebirth's moves_needed, remembered

    // Whether to ask proof_captures_feasible at this node. The bound costs as much as all the
    // others together; where it refuses fewer than 1 in 64 of the positions it is asked about
    // (counts halved every 2^16 questions, so the rate follows the search) it is asked at one
    // node in 8 only. Leaving a bound out never loses a game, it only prunes less.
    bool ask_captures() {
        if (capture_asked < 4096 || capture_refused * 64 >= capture_asked) return true;
        return (++capture_skipped & 7) == 0;
    }
    // Counts one answer of the bound.
    void captures_answered(bool refused) {
        ++capture_asked;
        if (refused) ++capture_refused;
        if (capture_asked >= (1 << 16)) {
            capture_asked /= 2;
            capture_refused /= 2;
        }
    }
    long capture_asked = 0, capture_refused = 0, capture_skipped = 0;
};

namespace {

// Depth-first search of one length from one position, collecting Popeye's solution lines
// in move order. Each instance owns its failure tables and bounds' caches, unless share()
// gives it a play's (then it uses the caches alone until it ends).
class Searcher {
  public:
    Searcher(const Run& run, const Position& root, const std::vector<Move>& prefix)
        : run_(run), root_(root), stack_(prefix) {
        if (!run.floors || run.floors->empty()) return;
        tracked_.n = int(std::min<size_t>(run.floors->size(), tracked_.floor.size()));
        std::copy_n(run.floors->begin(), tracked_.n, tracked_.floor.begin());
        Position pos = root;
        for (const Move& m : prefix) {
            track(pos, m);
            UndoInfo u;
            pos.do_move(m, u);
        }
    }

    ~Searcher() {
        if (shared_ && caches_) shared_->release(std::move(caches_));
    }

    // Collects each line's moves after the first `keep_from` (the prefix) in `lines` instead
    // of writing its text.
    void collect(std::vector<MoveLine>* lines, size_t keep_from) {
        lines_ = lines;
        keep_from_ = keep_from;
    }

    // Keeps the failure facts in `shared` (when given) instead of tables of its own, and takes
    // its bounds' caches from there.
    void share(ProofFailures* shared) { shared_ = shared; }

    // Searches only the moves of `line` (from the root; null: every move), each node with
    // every bound and move filter of the full search, and writes only `line` itself: it is
    // found exactly when the full search would not refuse any of its positions or moves.
    void follow(const MoveLine* line) { follow_ = line; }

    // Solutions in exactly `remaining` half-moves from `pos` (reached from the root by the
    // prefix); the last mover is `goal_side`. Stops early once `limit` lines were written
    // (0 = no limit).
    // Without a limit the moves are searched in generation order (sorting them at every node
    // costs more than sorting the lines found) and the lines are put in Popeye's order at the
    // end; with a limit, in Popeye's order, so that the first lines are Popeye's first.
    void solve(Position& pos, int remaining, Color goal_side, long limit) {
        goal_side_ = goal_side;
        limit_ = limit;
        if (!caches_)
            caches_ = shared_ ? shared_->acquire(*run_.target, run_.rebirth)
                              : std::make_unique<ProofCaches>(*run_.target, run_.rebirth);
        if (codes_.size() <= size_t(remaining)) codes_.resize(size_t(remaining) + 1);
        ordered_ = limit > 0;
        search(pos, remaining);
        if (!ordered_) write_in_order(pos);
    }

    const std::string& text() const { return text_; }
    long found() const { return found_; }
    bool stopped() const { return stop_; }

  private:
    // Follows the floors' units through move m of pos (before it is played): a unit that
    // moves owes one move fewer, one taken owes none (its floor is dropped: moves 0).
    void track(const Position& pos, const Move& m) {
        const Color mover = pos.side_to_move();
        const Square taken = capture_square(m, mover);
        for (int k = 0; k < tracked_.n; ++k) {
            UnitCostFloor& f = tracked_.floor[size_t(k)];
            if (f.moves <= 0) continue;
            if (f.unit == m.from) {
                f.unit = m.to;
                --f.moves;
            } else if (m.kind == MoveKind::Castling &&
                       f.unit == make_square(file_of(m.to) > file_of(m.from) ? 7 : 0, rank_of(m.from))) {
                f.unit = make_square(file_of(m.to) > file_of(m.from) ? 5 : 3, rank_of(m.from));
                --f.moves;
            } else if (f.unit == taken && !pos.empty(taken) && pos.piece_on(taken).color != mover) {
                f.moves = 0;
            }
        }
    }

    // The floors that still count at the current node (null: none).
    const std::vector<UnitCostFloor>* floors_now() const {
        if (tracked_.n == 0) return nullptr;
        current_.clear();
        for (int k = 0; k < tracked_.n; ++k)
            if (const UnitCostFloor& f = tracked_.floor[size_t(k)]; f.moves > 0) current_.push_back(f);
        return current_.empty() ? nullptr : &current_;
    }

    // proof_bound.h's values for one node, per side: moves needed, captures possible (-1:
    // not computed).
    struct Bounds {
        std::array<int, COLOR_NB> moves{-1, -1};
        std::array<int, COLOR_NB> captures{-1, -1};
        Bitboard fixed = 0;  // fixed_units
    };

    // Whether, under rebirth rules, a side needs more moves than it has left by RebirthBound's
    // count (or cannot lose the units it has beyond the target's). `stm_need`: the side to
    // move's count, when it was worked out.
    bool rebirth_hopeless(const Position& pos, int remaining, int& stm_need) const {
        const Color stm = pos.side_to_move();
        const int own = (remaining + 1) / 2, other = remaining / 2;
        for (Color c : {stm, ~stm}) {
            const int mine = c == stm ? own : other, theirs = c == stm ? other : own;
            if (!run_.rebirth->surplus_possible(pos, *run_.target, c, mine, theirs)) return true;
            const int need = caches_->rebirth->moves_needed(pos, c, mine, theirs);
            if (c == stm) stm_need = need;
            if (need > mine) return true;
        }
        return false;
    }

    // Whether `remaining` half-moves from `pos` can still reach the target (sound bound).
    // `parent`: the bounds of the position before the last move (null at the start), whose
    // values for the side that did not move are kept when that move took nothing: its units
    // and castling rights are unchanged, and the mover can only add walls to its distances
    // (a unit of the mover that leaves the fixed ones makes the mover's own target out of reach).
    // `touched`: the squares the last move emptied or filled (all squares when not known).
    // `d`: distance(pos, target), whose square count the caller has checked.
    bool hopeless(const Position& pos, int remaining, const Distance& d, Bounds& b, const Bounds* parent, bool captured,
                  Bitboard touched) const {
        if (run_.max_change == 0 || !run_.bound) return false;
        const Color stm = pos.side_to_move();
        const int own = (remaining + 1) / 2, other = remaining / 2;
        const std::array<int, COLOR_NB> need = moves_needed(pos, d);
        if (need[stm] > own || need[~stm] > other) return true;
        if (!run_.distances) return false;
        const Color moved = ~stm;  // the side that made the last move (when there is a parent)
        const bool keep = parent && !captured;
        // The parent's fixed units that the move left alone are still fixed.
        Bitboard fixed = fixed_units(pos, *run_.target, parent ? parent->fixed & ~touched : 0);
        std::array<int, COLOR_NB> budget{}, needs{};
        budget[stm] = own;
        budget[moved] = other;
        for (Color c : {WHITE, BLACK}) needs[c] = caches_->needed.moves_needed(pos, c, fixed);
        if (needs[stm] > own || needs[moved] > other) return true;
        // Units that the budgets keep on their squares are fixed too (for every game through
        // this node, so also below it); the needs are counted again with them.
        if (const Bitboard walls = caches_->walls.walls(pos, fixed, budget, needs)) {
            fixed = fixed_units(pos, *run_.target, fixed | walls);
            if (!keep) needs[stm] = caches_->needed.moves_needed(pos, stm, fixed);
            needs[moved] = caches_->needed.moves_needed(pos, moved, fixed);
        }
        b.fixed = fixed;
        b.moves[stm] = keep ? parent->moves[stm] : needs[stm];
        if (b.moves[stm] > own) return true;
        b.moves[moved] = needs[moved];
        if (b.moves[moved] > other) return true;
        // A side that must still take units sends one of its units through a square where
        // one of them can stand then (proof_captures.h).
        std::array<int, COLOR_NB> left{};
        left[stm] = own;
        left[moved] = other;
        if ((d.excess[WHITE] > 0 || d.excess[BLACK] > 0) && caches_->ask_captures()) {
            const bool refused =
                !proof_captures_feasible(pos, *run_.target, fixed, left, &caches_->captures, floors_now());
            caches_->captures_answered(refused);
            if (refused) return true;
        }
        for (Color c : {WHITE, BLACK}) {
            // c's pawns and the count of ~c's units decide; the side that did not move keeps
            // both unless the move took a unit.
            b.captures[c] = keep && c == stm ? parent->captures[c] : proof_captures_possible(pos, *run_.target, c);
            if (!b.captures[c]) return true;
        }
        // Each side makes exactly its moves: their parity too (proof_tempo.h), from the
        // target's bitboards when they apply.
        for (Color c : {stm, moved}) {
            const int left = c == stm ? own : other;
            if (!(run_.bits.plain ? proof_tempo_possible(pos, run_.bits.by[c], c, left, fixed)
                                  : proof_tempo_possible(pos, *run_.target, c, left, fixed)))
                return true;
        }
        return false;
    }

    // board_matches, first on the occupancy when the bitboards apply.
    bool matches(const Position& pos) const {
        if (run_.bits.plain &&
            (pos.pieces(WHITE) != run_.bits.color[WHITE] || pos.pieces(BLACK) != run_.bits.color[BLACK]))
            return false;
        return board_matches(pos, *run_.target);
    }

    bool search(Position& pos, int remaining, const Bounds* parent = nullptr, bool captured = false,
                Bitboard touched = ~Bitboard(0)) {
        run_.ctx->visit();
        // The squares that differ from the target first: a bound cheaper than the lookup below
        // (under Parrain, for one, it refuses most of the positions the bounds refuse).
        const Distance d = run_.bits.plain ? distance_bits(pos, run_.bits) : distance(pos, *run_.target);
        if (run_.max_change != 0 &&
            d.squares > next_move_change(pos, run_.max_change) + run_.max_change * (remaining - 1))
            return false;
        // Under rebirth rules their moves needed (remembered per thread, a smaller table than
        // the failures') refuse most of the positions the bounds refuse.
        int stm_need = -1;  // RebirthBound's count for the side to move, once worked out
        if (run_.rebirth && run_.max_change != 0 && rebirth_hopeless(pos, remaining, stm_need)) return false;
        // Then a position known to fail: the other bounds cost more than the lookup.
        const bool memo = remaining > 1;
        std::string& code = codes_[size_t(remaining)];  // one buffer a depth (sized by solve())
        if (memo) {
            position_code(pos, code);
            if (const ExactSet* failed = failures(remaining); failed && failed->contains(code)) return false;
        }
        Bounds bounds;
        if (hopeless(pos, remaining, d, bounds, parent, captured, touched)) {
            // Remembered too (a third of the refused positions come again by other move orders):
            // the bounds' verdict is the position's, whatever the way to it (the facts taken
            // from the parent hold for every game from here). Only while the table is less
            // than half full: the positions whose subtrees were searched are worth more.
            if (memo) remember_failure(remaining, code, kMaxFailuresPerDepth / 2);
            return false;
        }
        const Bounds* mine = run_.distances && bounds.moves[WHITE] >= 0 ? &bounds : nullptr;
        if (remaining == 1 && run_.arrival_changes && run_.bits.plain) return last_move(pos);
        MoveList list;
        if (ordered_)
            popeye_ordered_moves(pos, list);
        else
            generate_legal(pos, list);
        const Color mover = pos.side_to_move();
        // The mover's moves after which a side needs more moves than it has left are not
        // played (MoveProgress, RebirthProgress: no position to work out).
        const int own = (remaining + 1) / 2;
        std::optional<MoveProgress> progress, taken;  // the mover's; the other side's, at its first capture
        int spare = 0;
        if (mine && remaining > 1) {
            progress.emplace(caches_->progress.get(pos, mover, bounds.fixed));
            if (progress->need() > own) return false;
            spare = own - progress->need();
        }
        // Under rebirth rules, with at most one move to spare: the plain moves.
        std::optional<RebirthProgress> reborn;
        if (run_.rebirth && remaining > 1) {
            if (stm_need < 0) stm_need = caches_->rebirth->moves_needed(pos, mover, own, remaining / 2);
            if (stm_need + 1 >= own) reborn.emplace(*run_.rebirth, pos, *run_.target, mover, own, remaining / 2);
        }
        // Under rebirth rules a move that takes nothing leaves the other side's units as they
        // are (a unit waiting for its Parrain rebirth is the mover's, and comes back only on an
        // empty square unless an occupant is removed) and one move fewer to the mover, so one
        // rebirth fewer within the other side's reach: where the other side then needs more
        // moves than it has, only captures are played (its bound at the child).
        const Piece waiting = pos.parrain_piece();
        const bool only_captures =
            run_.rebirth && remaining > 1 &&
            (waiting.empty() || (waiting.color == mover && (pos.rules()->occupied == Occupied::Relaxed ||
                                                            pos.rules()->occupied == Occupied::Strict))) &&
            caches_->rebirth->moves_needed(pos, ~mover, remaining / 2, own - 1) > remaining / 2;
        // The fixed units (fixed_units, settled_walls) never move and are never taken again.
        const Bitboard fixed = mine ? bounds.fixed : 0;
        // The square count after a plain move, worked out here: most children that bound
        // refuses are not played.
        const bool count_squares = remaining > 1 && plain_moves_change_two(pos, run_.max_change);
        // Without rules each unit of the other side beyond the target's takes a capture of the
        // mover's side (moves_needed): when they take all the mover's moves left after this
        // one, a move that takes nothing leaves the mover short.
        const bool must_take =
            remaining > 1 && run_.bound && run_.max_change != 0 && d.excess[~mover] > (remaining - 1) / 2;
        bool found = false;
        for (const Move& m : list) {
            if (stop_) break;
            if (follow_ && !(stack_.size() < follow_->size() && m == (*follow_)[stack_.size()])) continue;
            if ((must_take || only_captures) && pos.empty(m.to) && m.kind != MoveKind::EnPassant) continue;
            if (count_squares && m.kind == MoveKind::Normal && pos.empty(m.to)) {
                const auto [squares, next] = squares_after(pos, *run_.target, d, m, run_.max_change);
                if (squares > next + run_.max_change * (remaining - 2)) continue;
            }
            if (fixed) {
                Bitboard moved = square_bb(m.from) | square_bb(capture_square(m, mover));
                if (m.kind == MoveKind::Castling)
                    moved |= square_bb(make_square(file_of(m.to) > file_of(m.from) ? 7 : 0, rank_of(m.from)));
                if (fixed & moved) continue;
            }
            if (reborn && m.kind == MoveKind::Normal && pos.empty(m.to) && reborn->need_after(m.from, m.to) >= own)
                continue;
            if (progress && m.kind == MoveKind::Normal) {
                if (pos.empty(m.to)) {
                    // A piece can step back, so its move raises its costs by one at most: with
                    // two moves or more to spare only a pawn or a unit leaving its target
                    // square (that the others may not reach) can leave the mover short.
                    const Piece home = (*run_.target)[m.from], unit = pos.piece_on(m.from);
                    const bool leaves = home.walk == unit.walk && home.color == mover;
                    // A king's move that ends castling may raise the need by more than one.
                    const bool uncastles = unit.walk == KING && pos.castling_sides(mover);
                    if (spare < 2 || leaves || unit.walk == PAWN || uncastles) {
                        // The dual bound first; where it leaves one move to spare (or counts
                        // castling that is lost), the exact count.
                        const int after = progress->need_after(m.from, m.to);
                        if (after >= own ||
                            ((after == own - 1 || uncastles) && progress->need_after_exact(m.from, m.to) >= own))
                            continue;
                    }
                } else {
                    // A capture leaves the mover's costs as after a plain move, or higher (fewer
                    // captures left), and the capture rows too unless a pawn is taken.
                    const bool stays = pos.piece_on(m.to).walk != PAWN;
                    const int after = progress->need_after(m.from, m.to, stays);
                    if (after >= own || (after == own - 1 && progress->need_after_exact(m.from, m.to, stays) >= own))
                        continue;
                    // The other side may then need more than it has left.
                    if (!taken) taken.emplace(caches_->progress.get(pos, ~mover, bounds.fixed));
                    const int other = remaining / 2;
                    const bool kept = pos.piece_on(m.from).walk != PAWN;
                    const int without = taken->need_without(m.to, kept);
                    if (without > other || (without == other && taken->need_without_exact(m.to, kept) > other))
                        continue;
                }
            }
            UndoInfo u;
            // The floors' units followed through the move (a copy only where there are floors).
            std::optional<Tracked> before;
            if (tracked_.n) {
                before = tracked_;
                track(pos, m);
            }
            pos.do_move(m, u);
            stack_.push_back(m);
            const bool at_target = mover == goal_side_ && matches(pos);
            if (remaining == 1) {
                if (at_target) {
                    emit();
                    found = true;
                }
            } else if (!at_target && search(pos, remaining - 1, mine, u.captured.walk != NO_WALK, touched_by(m))) {
                // Reaching the target before the last move ends the play there (as in help play).
                found = true;
            }
            stack_.pop_back();
            pos.undo_move(m, u);
            if (before) tracked_ = *before;
        }
        if (memo && !found && !stop_) remember_failure(remaining, code);
        return found;
    }

    // The failure facts of positions `remaining` half-moves from the end (the shared table's
    // when there is one), or null when none were kept.
    const ExactSet* failures(int remaining) const {
        if (shared_) return shared_->at(remaining);
        return remaining < static_cast<int>(failures_.size()) ? failures_[size_t(remaining)].get() : nullptr;
    }

    // Remembers that no line of `remaining` half-moves goes on from the position `code`.
    // Bounded, as the other solvers' tables: past the cap (at most kMaxFailuresPerDepth)
    // failures are not remembered.
    void remember_failure(int remaining, const std::string& code, size_t cap = kMaxFailuresPerDepth) {
        ExactSet* set = nullptr;
        if (shared_) {
            set = shared_->at(remaining);
        } else {
            while (remaining >= static_cast<int>(failures_.size())) failures_.push_back(std::make_unique<ExactSet>());
            set = failures_[size_t(remaining)].get();
        }
        if (set && set->size() < cap) set->insert(code);
    }

    // The last half-move (by the goal side): it changes every square where pos differs from
    // the target and no other, so its arrival square is one of them (run_.arrival_changes;
    // or, under rules, it is the en passant square), and without rules its departure square
    // too. Only those moves are played; the ones that reach the target are written in
    // Popeye's order.
    bool last_move(Position& pos) {
        const Bitboard differ = differing_bits(pos, run_.bits);
        const Bitboard from_mask = pos.has_rules() ? ~Bitboard(0) : differ;
        // An en passant capture under AntiCirce leaves its arrival square empty (the capturer is
        // reborn elsewhere): its capture square is the one that changes.
        const Bitboard ep = pos.has_rules() && pos.ep_square() != SQ_NONE ? square_bb(pos.ep_square()) : 0;
        std::array<Bitboard, SQUARE_NB> to{};
        for (Bitboard b = from_mask & pos.pieces(pos.side_to_move()); b;) to[size_t(pop_lsb(b))] = differ | ep;
        MoveList list, hits;
        generate_legal_to(pos, to.data(), list);
        for (const Move& m : list) {
            UndoInfo u;
            pos.do_move(m, u);
            if (matches(pos)) hits.push(m);
            pos.undo_move(m, u);
        }
        if (hits.size() > 1) popeye_sort(pos, hits, false);
        for (const Move& m : hits) {
            if (stop_) break;
            stack_.push_back(m);
            emit();
            stack_.pop_back();
        }
        return hits.size() > 0;
    }

    // Appends the line on the stack: "  1.e2-e4 e7-e5   2.Sg1-f3 dia" (or, collecting, its
    // moves after the prefix).
    void emit() {
        if (follow_ && stack_ != *follow_) return;
        if (!ordered_) {
            pending_.push_back(stack_);
            ++found_;
            return;
        }
        if (lines_)
            lines_->emplace_back(stack_.begin() + long(keep_from_), stack_.end());
        else
            text_ += render_line(run_, root_, stack_);
        ++found_;
        if (limit_ > 0 && found_ >= limit_) stop_ = true;
    }

    // Writes the lines found in generation order (pending_) as emit() would have in Popeye's:
    // ordered by the rank of each move after the prefix among popeye_ordered_moves of its
    // position (`start`: the position after the prefix), ties in the order found.
    void write_in_order(const Position& start) {
        const size_t from = stack_.size();  // the prefix: every line begins with it
        std::vector<std::pair<std::vector<int>, size_t>> keys(pending_.size());
        // Lines share prefixes (found depth first, then sorted): the positions and ranks of
        // the previous line's moves are kept and only its differing tail is replayed.
        std::vector<Position> at{start};  // at[k]: after the first k moves beyond the prefix
        for (size_t j = 0; j < pending_.size(); ++j) {
            const MoveLine& line = pending_[j];
            size_t same = 0;
            if (j > 0) {
                const MoveLine& prev = pending_[j - 1];
                while (from + same < line.size() && from + same < prev.size() && same + 1 < at.size() &&
                       line[from + same] == prev[from + same])
                    ++same;
                keys[j].first.assign(keys[j - 1].first.begin(), keys[j - 1].first.begin() + long(same));
            }
            at.resize(same + 1);
            keys[j].second = j;
            for (size_t i = from + same; i < line.size(); ++i) {
                Position pos = at.back();
                MoveList list;
                popeye_ordered_moves(pos, list);
                keys[j].first.push_back(static_cast<int>(std::find(list.begin(), list.end(), line[i]) - list.begin()));
                UndoInfo u;
                pos.do_move(line[i], u);
                at.push_back(std::move(pos));
            }
        }
        std::stable_sort(keys.begin(), keys.end());
        LineText texts(run_, root_);
        for (const auto& [key, j] : keys) {
            const MoveLine& line = pending_[j];
            if (lines_)
                lines_->emplace_back(line.begin() + long(keep_from_), line.end());
            else
                text_ += texts.render(line);
        }
        pending_.clear();
    }

    const Run& run_;
    const Position& root_;
    std::vector<Move> stack_;
    bool ordered_ = true;                  // moves searched in Popeye's order (else pending_ sorted)
    std::vector<MoveLine> pending_;        // lines found, in generation order (ordered_ false)
    std::unique_ptr<ProofCaches> caches_;  // the bounds' caches (from shared_ when there is one)
    std::vector<std::unique_ptr<ExactSet>> failures_;
    std::vector<std::string> codes_;  // position_code's buffer per half-moves remaining
    ProofFailures* shared_ = nullptr;
    const MoveLine* follow_ = nullptr;  // follow()
    static constexpr size_t kMaxFailuresPerDepth = size_t(1) << 21;
    std::string text_;
    std::vector<MoveLine>* lines_ = nullptr;
    size_t keep_from_ = 0;
    Color goal_side_ = WHITE;
    long limit_ = 0;
    long found_ = 0;
    bool stop_ = false;
    // run_.floors (the first 16) followed to the current node.
    struct Tracked {
        std::array<UnitCostFloor, 16> floor{};
        int n = 0;
    } tracked_;
    mutable std::vector<UnitCostFloor> current_;  // floors_now()'s list
};

// Every solution of `length` half-moves that begins with `prefix` (played from the play's
// start `root` to `from`), in Popeye's order: their text is appended to `text`, or with
// `lines` their moves after the prefix to `lines`. With no solution limit the first moves
// after the prefix are searched in parallel (each on its own position copy), their lines
// joined in move order. `limit_left` (0: none) counts down the lines still wanted; `stopped`
// is set when it ran out. `shared` (when given) holds the failure facts of every search of
// the play instead of each searcher's own.
void solve_length(const Run& run, const Position& root, const MoveLine& prefix, const Position& from, int length,
                  long& limit_left, bool& stopped, std::string* text, std::vector<MoveLine>* lines,
                  ProofFailures* shared) {
    const Color goal_side = length % 2 ? run.first : ~run.first;
    const int remaining = length - static_cast<int>(prefix.size());
    const long limit = limit_left;
    const int threads = run.ctx->threads;
    MoveList firsts;
    popeye_ordered_moves(from, firsts);
    if (limit > 0 || threads == 1 || remaining < 3 || firsts.size() < 2) {
        Position pos = from;
        Searcher s(run, root, prefix);
        s.share(shared);
        if (lines) s.collect(lines, prefix.size());
        s.solve(pos, remaining, goal_side, limit);
        if (limit > 0) {
            limit_left -= s.found();
            stopped = s.stopped();
        }
        if (text) *text += s.text();
        return;
    }
    std::vector<std::string> texts(firsts.size());
    std::vector<std::vector<MoveLine>> found(firsts.size());
    auto body = [&](size_t i) {
        Position pos = from;
        UndoInfo u;
        pos.do_move(firsts[i], u);
        const bool at_target = from.side_to_move() == goal_side && board_matches(pos, *run.target);
        if (at_target) return;  // the play would end after this move
        MoveLine line = prefix;
        line.push_back(firsts[i]);
        Searcher s(run, root, line);
        s.share(shared);
        if (lines) s.collect(&found[i], prefix.size());
        s.solve(pos, remaining - 1, goal_side, 0);
        texts[i] = s.text();
    };
    run_in_arena(threads, [&] { for_each_index(threads, size_t(firsts.size()), body); });
    for (size_t i = 0; i < texts.size(); ++i) {
        if (text) *text += texts[i];
        if (lines) lines->insert(lines->end(), found[i].begin(), found[i].end());
    }
}

}  // namespace

// The position play starts from: the game array for dia (all castling rights), position a
// for a=>b (castling rights of kings and rooks on their home squares, minus NoCastling).
Setup proof_start_setup(const Problem& p) {
    Setup s;
    const bool atob = p.stipulation.play == Stipulation::Play::AToB && p.start_board;
    s.board = atob ? *p.start_board : game_array();
    s.side_to_move = atob ? p.setup.side_to_move : WHITE;
    const struct {
        Square sq;
        Color color;
        Walk walk;
    } homes[] = {{SQ_E1, WHITE, KING}, {SQ_A1, WHITE, ROOK}, {SQ_H1, WHITE, ROOK},
                 {SQ_E8, BLACK, KING}, {SQ_A8, BLACK, ROOK}, {SQ_H8, BLACK, ROOK}};
    const auto& excluded = p.options.no_castling;
    for (const auto& h : homes) {
        const Piece on = s.board[h.sq];
        if (on.walk != h.walk || on.color != h.color) continue;
        if (atob && std::find(excluded.begin(), excluded.end(), h.sq) != excluded.end()) continue;
        s.castling |= square_bb(h.sq);
    }
    return s;
}

bool ProofTwinSearch::handles(const SolveContext& ctx) {
    const Stipulation& st = ctx.problem.stipulation;
    const bool dia = st.play == Stipulation::Play::ProofGame;
    if ((!dia && st.play != Stipulation::Play::AToB) || st.intro > 0 || st.half_moves < 1) return false;
    return dia || ctx.problem.start_board.has_value();
}

struct ProofTwinSearch::Impl {
    Board target{};
    std::unique_ptr<const RebirthBound> rebirth_bound;
    std::vector<Run> runs;        // one per play; they point at `target` and `rebirth_bound`
    std::vector<Position> roots;  // each play's start, its first side to move
    std::vector<Play> plays;
    bool series = false;  // ser-dia, ser-a=>b: lengths and lines count the series side's moves
    // Per play, the floors of passage_raises at the play's start (orthodox only) for its
    // longest length, worked out at the first search: a floor found with more moves holds
    // with fewer (fewer games), so they serve every length of the play.
    mutable std::mutex floors_mutex;
    mutable std::map<int, std::vector<UnitCostFloor>> floors;

    // The floors for `play` (for `length` half-moves or fewer; the first side makes (length +
    // 1) / 2 of them).
    const std::vector<UnitCostFloor>* floors_for(int play, int length) const {
        const Run& run = runs[size_t(play)];
        if (!run.distances || !run.bound) return nullptr;
        const std::vector<int>& lengths = plays[size_t(play)].lengths;
        const int longest = lengths.empty() ? length : std::max(length, lengths.back());
        std::lock_guard<std::mutex> lock(floors_mutex);
        auto [at, fresh] = floors.try_emplace(play);
        if (fresh) {
            const Position& root = roots[size_t(play)];
            std::array<int, COLOR_NB> budget{};
            budget[run.first] = (longest + 1) / 2;
            budget[~run.first] = longest / 2;
            // None where the bounds refuse the start already (the search ends there).
            const Bitboard fixed = fixed_units(root, target);
            const bool open = proof_moves_needed(root, target, WHITE, fixed) <= budget[WHITE] &&
                              proof_moves_needed(root, target, BLACK, fixed) <= budget[BLACK] &&
                              proof_captures_feasible(root, target, fixed, budget);
            if (open) at->second = passage_raises(root, target, fixed, budget, kPassageStates, 2);
        }
        return &at->second;
    }
    // Positions a passage search may visit (passage_moves): about 0.15 s on one thread.
    static constexpr int kPassageStates = 500000;
};

ProofTwinSearch::ProofTwinSearch(const SolveContext& ctx) : impl_(std::make_unique<Impl>()) {
    if (!handles(ctx)) throw std::invalid_argument("not a proof game that solve_proof_game solves");
    const Stipulation& st = ctx.problem.stipulation;
    const Options& opt = ctx.problem.options;
    const bool dia = st.play == Stipulation::Play::ProofGame;
    Impl& m = *impl_;
    m.target = ctx.problem.setup.board;
    const Board& target = m.target;
    const Color first = ctx.initial.side_to_move();
    std::vector<Color> starters;
    if (!opt.half_duplex) starters.push_back(first);
    if (opt.duplex || opt.half_duplex) starters.push_back(~first);
    // As in help play: every length of the same parity from the shortest (exact-: n only);
    // in series play every length from one move.
    m.series = st.series;
    const int min_length = st.exact ? st.half_moves : st.series ? 1 : (st.half_moves % 2 ? 1 : 2);
    const int step = st.series ? 1 : 2;
    for (const Color starter : starters) {
        Run run;
        run.ctx = &ctx;
        run.target = &target;
        run.mark = dia ? " dia" : " a=>b";
        run.first = starter;
        run.bound = !ctx.initial.has_rules();
        run.distances = proof_bound_applies(ctx.initial, target);
        run.bits = target_bits(target);
        // Units with attributes (or fairy walks, which the bitboards by walk do not hold)
        // keep the square-by-square comparison.
        run.bits.plain = run.bits.plain && plain_units(ctx.initial) && !ctx.initial.has_fairy() &&
                         std::all_of(target.begin(), target.end(), [](Piece p) { return p.walk <= PAWN; });
        run.max_change = max_squares_per_move(ctx.initial);
        run.arrival_changes = last_move_arrives(ctx.initial, run.max_change);
        if (ctx.initial.has_rules() && run.bits.plain && !m.rebirth_bound)
            m.rebirth_bound = RebirthBound::make(*ctx.initial.rules(), &ctx.initial);
        if (run.bits.plain) run.rebirth = m.rebirth_bound.get();
        Position root = ctx.initial;
        if (root.side_to_move() != run.first) root.set_side_to_move_for_analysis(run.first);
        Play play;
        play.first = starter;
        play.blocked = root.in_check(~run.first);
        // An orthodox diagram no game reaches (legality.h) has no proof game: said at once.
        if (!play.blocked && dia && !st.series && !ctx.initial.has_rules() && !ctx.initial.has_fairy()) {
            const Color to_move = st.half_moves % 2 ? ~run.first : run.first;
            const LegalityVerdict v = analyze_orthodox_legality(target, to_move);
            if (v.illegal) {
                play.blocked = true;
                play.note = std::string(run.first == WHITE ? "White" : "Black") +
                            " playing first: no game reaches the diagram (" + v.reason + ")";
            }
        }
        if (!play.blocked)
            for (int len = min_length; len <= st.half_moves; len += step) play.lengths.push_back(len);
        m.runs.push_back(run);
        m.roots.push_back(std::move(root));
        m.plays.push_back(std::move(play));
    }
}

ProofTwinSearch::~ProofTwinSearch() = default;

const std::vector<ProofTwinSearch::Play>& ProofTwinSearch::plays() const { return impl_->plays; }

namespace {

// Plays `line` from `pos`, each move checked to be legal there. Throws
// std::invalid_argument naming the first move that is not.
void play_checked(Position& pos, const MoveLine& line) {
    for (size_t i = 0; i < line.size(); ++i) {
        MoveList legal;
        popeye_ordered_moves(pos, legal);
        if (std::find(legal.begin(), legal.end(), line[i]) == legal.end())
            throw std::invalid_argument("move " + std::to_string(i + 1) + " of the line is not legal in its position");
        UndoInfo u;
        pos.do_move(line[i], u);
    }
}

// Plays the series line `line` from `pos` (its side to move the series side), each move
// checked to be legal there, the other side passing after each move but the last. Throws
// std::invalid_argument naming the first move that is not legal.
void play_series_checked(Position& pos, const MoveLine& line) {
    const Color side = pos.side_to_move();
    for (size_t i = 0; i < line.size(); ++i) {
        if (i > 0) pos.set_side_to_move_for_analysis(side);
        try {
            play_checked(pos, MoveLine{line[i]});
        } catch (const std::invalid_argument&) {
            throw std::invalid_argument("move " + std::to_string(i + 1) + " of the line is not legal in its position");
        }
    }
}

}  // namespace

void ProofTwinSearch::solve(int play, const MoveLine& prefix, int length, long& limit_left, bool& stopped,
                            std::string* text, std::vector<MoveLine>* lines, const SolveContext* ctx,
                            ProofFailures* shared) const {
    const Impl& m = *impl_;
    if (play < 0 || play >= static_cast<int>(m.plays.size())) throw std::invalid_argument("no such play");
    if (length <= static_cast<int>(prefix.size())) throw std::invalid_argument("a length no longer than the prefix");
    Run run = m.runs[size_t(play)];
    if (ctx) run.ctx = ctx;
    const Position& root = m.roots[size_t(play)];
    if (m.series) {
        Position from = root;
        for (const Move& mv : prefix) {
            play_checked(from, MoveLine{mv});
            // The play ends at the target; a check leaves the other side no pass.
            if (board_matches(from, m.target) || from.in_check()) return;
            from.set_side_to_move_for_analysis(run.first);
        }
        std::vector<MoveLine> found;
        series_proof_lines(*run.ctx, m.target, from, length - static_cast<int>(prefix.size()), limit_left, stopped,
                           found, shared);
        for (MoveLine& suffix : found) {
            if (text) {
                MoveLine whole = prefix;
                whole.insert(whole.end(), suffix.begin(), suffix.end());
                *text += line_text(play, whole, false);
            }
            if (lines) lines->push_back(std::move(suffix));
        }
        return;
    }
    const Color goal_side = length % 2 ? run.first : ~run.first;
    Position from = root;
    for (size_t i = 0; i < prefix.size(); ++i) {
        const Color mover = from.side_to_move();
        play_checked(from, MoveLine{prefix[i]});
        // The play ends where the goal side reaches the target: no line goes on from there.
        if (mover == goal_side && board_matches(from, m.target)) return;
    }
    run.floors = m.floors_for(play, length);
    solve_length(run, root, prefix, from, length, limit_left, stopped, text, lines, shared);
}

bool ProofTwinSearch::keeps_line(int play, const MoveLine& line) const {
    const Impl& m = *impl_;
    if (play < 0 || play >= static_cast<int>(m.plays.size())) throw std::invalid_argument("no such play");
    if (line.empty()) throw std::invalid_argument("an empty line");
    const Run& run = m.runs[size_t(play)];
    const Position& root = m.roots[size_t(play)];
    Position end = root;
    if (m.series) {
        play_series_checked(end, line);
        if (m.plays[size_t(play)].blocked) return false;
        long no_limit = 0;
        bool stopped = false;
        std::vector<MoveLine> found;
        series_proof_lines(*run.ctx, m.target, root, static_cast<int>(line.size()), no_limit, stopped, found, nullptr,
                           &line);
        return !found.empty();
    }
    play_checked(end, line);
    if (m.plays[size_t(play)].blocked) return false;
    Run floored = run;  // the full search's floors too
    floored.floors = m.floors_for(play, static_cast<int>(line.size()));
    Position pos = root;
    Searcher s(floored, root, {});
    s.follow(&line);
    const int length = static_cast<int>(line.size());
    s.solve(pos, length, length % 2 ? run.first : ~run.first, 0);
    return s.found() > 0;  // twice where two moves are written alike (Mars Circe castling)
}

bool ProofTwinSearch::frontier(int play, int depth, size_t max_prefixes, std::vector<ProofFrontierNode>& nodes,
                               std::vector<std::pair<int, int>>& order) const {
    const Impl& m = *impl_;
    if (play < 0 || play >= static_cast<int>(m.plays.size()) || m.plays[size_t(play)].lengths.empty())
        throw std::invalid_argument("no such play");
    if (depth < 0) throw std::invalid_argument("a negative frontier depth");
    const Run& run = m.runs[size_t(play)];
    const Color goal_side = m.plays[size_t(play)].lengths.front() % 2 ? run.first : ~run.first;
    nodes.clear();
    order.clear();
    std::map<std::string, int> index;  // position_code -> node
    MoveLine prefix;
    bool complete = true;
    // Depth-first in Popeye's move order: prefixes come out in generation order.
    auto walk = [&](auto& self, Position& pos, int left) -> void {
        if (!complete) return;
        if (left == 0) {
            if (order.size() >= max_prefixes) {
                complete = false;
                return;
            }
            auto [it, fresh] = index.emplace(position_code(pos), static_cast<int>(nodes.size()));
            if (fresh) nodes.emplace_back();
            ProofFrontierNode& node = nodes[size_t(it->second)];
            order.push_back({it->second, static_cast<int>(node.prefixes.size())});
            node.prefixes.push_back(prefix);
            return;
        }
        MoveList list;
        popeye_ordered_moves(pos, list);
        const Color mover = pos.side_to_move();
        for (const Move& mv : list) {
            UndoInfo u;
            pos.do_move(mv, u);
            if (m.series) {
                // The play ends at the target; a check leaves the other side no pass.
                if (!board_matches(pos, m.target) && !pos.in_check()) {
                    Position next = pos;
                    next.set_side_to_move_for_analysis(mover);
                    prefix.push_back(mv);
                    self(self, next, left - 1);
                    prefix.pop_back();
                }
            } else if (!(mover == goal_side && board_matches(pos, m.target))) {
                // A prefix where the goal side reaches the target ends the play there.
                prefix.push_back(mv);
                self(self, pos, left - 1);
                prefix.pop_back();
            }
            pos.undo_move(mv, u);
            if (!complete) return;
        }
    };
    Position pos = m.roots[size_t(play)];
    walk(walk, pos, depth);
    return complete;
}

std::string ProofTwinSearch::line_text(int play, const MoveLine& line, bool check) const {
    const Impl& m = *impl_;
    if (play < 0 || play >= static_cast<int>(m.plays.size())) throw std::invalid_argument("no such play");
    if (check) {
        Position pos = m.roots[size_t(play)];
        // Every move legal: the text below plays them unchecked.
        if (m.series)
            play_series_checked(pos, line);
        else
            play_checked(pos, line);
    }
    if (m.series)
        return series_line_text(m.roots[size_t(play)], line, m.runs[size_t(play)].ctx->problem.language,
                                m.runs[size_t(play)].mark);
    return render_line(m.runs[size_t(play)], m.roots[size_t(play)], line);
}

MoveLine ProofTwinSearch::game(int play, const MoveLine& line) const {
    if (play < 0 || play >= static_cast<int>(impl_->plays.size())) throw std::invalid_argument("no such play");
    return impl_->series ? series_game(line) : line;
}

ProofFailures::ProofFailures(int longest) {
    for (int r = 0; r <= longest; ++r) sets_.push_back(std::make_unique<ExactSet>());
}

ProofFailures::~ProofFailures() = default;

std::unique_ptr<ProofCaches> ProofFailures::acquire(const Board& target, const RebirthBound* bound) {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (!caches_.empty()) {
            std::unique_ptr<ProofCaches> c = std::move(caches_.back());
            caches_.pop_back();
            return c;
        }
    }
    return std::make_unique<ProofCaches>(target, bound);
}

void ProofFailures::release(std::unique_ptr<ProofCaches> caches) {
    const std::lock_guard<std::mutex> lock(mutex_);
    caches_.push_back(std::move(caches));
}

ExactSet* ProofFailures::at(int remaining) const {
    return remaining >= 0 && remaining < static_cast<int>(sets_.size()) ? sets_[size_t(remaining)].get() : nullptr;
}

bool solve_proof_game(const SolveContext& ctx) {
    if (!ProofTwinSearch::handles(ctx)) return false;
    const Stipulation& st = ctx.problem.stipulation;
    const ProofTwinSearch search(ctx);
    const Options& opt = ctx.problem.options;
    const std::vector<ProofTwinSearch::Play>& plays = search.plays();
    TwinOutput scratch;
    TwinOutput& out = ctx.output ? *ctx.output : scratch;
    for (size_t r = 0; r < plays.size(); ++r) {
        const ProofTwinSearch::Play& play = plays[r];
        if (play.blocked) {
            if (!play.note.empty() && ctx.notes) ctx.notes->push_back(play.note);
            continue;
        }
        // MaxSolutions counts the solutions of each play (phase) separately.
        long limit_left = opt.max_solutions ? std::max(*opt.max_solutions, 1) : 0;
        bool stopped = false;
        // One failure table for the play's searches: each thread's search (one a first move)
        // uses what the others proved, as one thread's search does across its first moves.
        ProofFailures failures(play.lengths.empty() ? 0 : play.lengths.back());
        for (size_t i = 0; i < play.lengths.size() && !stopped; ++i) {
            std::vector<MoveLine> lines;
            search.solve(static_cast<int>(r), {}, play.lengths[i], limit_left, stopped, nullptr, &lines, nullptr,
                         &failures);
            for (MoveLine& line : lines)
                out.lines.push_back({0, static_cast<int>(r), play.first, search.game(int(r), line)});
            // StopOnShortSolutions (series play, as Popeye): no longer lines once lines shorter
            // than the stipulation's.
            if (st.series && opt.stop_on_short_solutions && play.lengths[i] < st.half_moves && !lines.empty())
                stopped = true;
        }
        if (stopped && ctx.partial) *ctx.partial = true;
        out.last_cut = stopped;
    }
    return true;
}

bool render_proof_game(const SolveContext& ctx, const TwinOutput& found, std::string& out) {
    if (!ProofTwinSearch::handles(ctx)) return false;
    if (!found.trees.empty()) throw std::invalid_argument("trees in a proof game");
    const ProofTwinSearch search(ctx);
    const std::vector<ProofTwinSearch::Play>& plays = search.plays();
    const bool series = ctx.problem.stipulation.series;
    std::string text;
    size_t next = 0;
    for (size_t r = 0; r < plays.size(); ++r) {
        if (plays[r].blocked) {
            text += "\n";
            continue;
        }
        for (; next < found.lines.size() && found.lines[next].play == int(r); ++next) {
            const PlayLine& game = found.lines[next];
            if (game.first != plays[r].first || game.set_play || game.restart != -1)
                throw std::invalid_argument("a game of another play");
            // A series game has the other side's passes between the moves (ProofTwinSearch::game).
            MoveLine line;
            for (size_t i = 0; i < game.moves.size(); ++i) {
                const bool pass = series && i % 2 == 1;
                if (pass != game.moves[i].is_null()) throw std::invalid_argument("a series game without its passes");
                if (!pass) line.push_back(game.moves[i]);
            }
            if (line.empty()) throw std::invalid_argument("an empty game");
            text += search.line_text(static_cast<int>(r), line, ctx.check);
        }
        if (!found.last_cut || r + 1 != plays.size()) text += "\n";
    }
    if (next != found.lines.size()) throw std::invalid_argument("games of a play the twin does not have");
    out += text;
    return true;
}

}  // namespace rebirth
