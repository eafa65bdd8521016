#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/exact_set.h"
#include "core/parallel.h"
#include "rebirth/legality.h"
#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/popeye_order.h"
#include "rebirth/proof_bound.h"
#include "rebirth/proof_captures.h"
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

bool board_matches(const Position& pos, const Board& target) {
    for (int s = 0; s < SQUARE_NB; ++s)
        if (!same_unit(pos.piece_on(Square(s)), target[s])) return false;
    return true;
}

// The orthodox game array: the start of every dia stipulation.
Board game_array() {
    Board b{};
    const Walk officers[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};
    for (int f = 0; f < 8; ++f) {
        b[make_square(f, 0)] = make_piece(WHITE, officers[f]);
        b[make_square(f, 1)] = make_piece(WHITE, PAWN);
        b[make_square(f, 6)] = make_piece(BLACK, PAWN);
        b[make_square(f, 7)] = make_piece(BLACK, officers[f]);
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
// that one rebirth (the unit taken now waits). Chained, buried or lifted rebirths and the
// extra effects are left unbounded.
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
    return 5;
}

// The most squares the next half-move of pos can change, at most max_change (the bound for
// any half-move under its rules): its departure and arrival squares; castling's four when the
// side to move may castle now (a right, and nothing between king and rook); an en passant
// victim's square when en passant is open; the one rebirth square of a capture where the
// captured unit (Circe) or the capturer (AntiCirce) is reborn at once (none under Parrain,
// whose rebirth waits), and a Parrain rebirth pending from the half-move before. Rules with
// more effects keep max_change.
int next_move_change(const Position& pos, int max_change) {
    const unsigned sides = pos.castling_sides(pos.side_to_move());
    const int rank = pos.side_to_move() == WHITE ? 0 : 7;
    const bool castles = ((sides & 1u) && !(pos.pieces() & between_bb(make_square(4, rank), make_square(0, rank)))) ||
                         ((sides & 2u) && !(pos.pieces() & between_bb(make_square(4, rank), make_square(7, rank))));
    const int ep = pos.ep_square() != SQ_NONE ? 1 : 0;
    if (!pos.has_rules()) return std::min(max_change, std::max(castles ? 4 : 2, 2 + ep));
    const RuleSet& r = *pos.rules();
    if (r.reborn == Reborn::Both || r.atom || r.kamikaze || r.hydra || r.mars || r.antimars ||
        (r.occupied != Occupied::Relaxed && r.occupied != Occupied::Strict && r.occupied != Occupied::Assassin))
        return max_change;
    const bool parrain = parrain_like(r);
    const int rebirth_now = r.reborn != Reborn::None && !parrain ? 1 : 0;
    const int pending = parrain && !pos.parrain_piece().empty() ? 1 : 0;
    return std::min(max_change, std::max(castles ? 4 : 2, 2 + ep + rebirth_now) + pending);
}

// An exact, collision-free encoding of everything that decides the play from `pos`: units
// with their attributes, side to move, castling, en passant and, under rebirth rules, the
// diagram origins and the waiting (Parrain, buried) units.
std::string position_code(const Position& pos) {
    std::string k;
    k.reserve(pos.has_rules() ? 120 : 80);
    for (int s = 0; s < SQUARE_NB; ++s) {
        const Piece p = pos.piece_on(Square(s));
        k += static_cast<char>(p.walk | (p.color << 4) | (p.flags << 5));
    }
    k += static_cast<char>(pos.side_to_move());
    k += static_cast<char>(pos.ep_square());
    const Bitboard rights = pos.castling_rights();
    k.append(reinterpret_cast<const char*>(&rights), sizeof rights);
    if (pos.has_rules()) {
        for (Bitboard b = pos.pieces(); b; b &= b - 1) k += static_cast<char>(pos.origin(Square(__builtin_ctzll(b))));
        const Piece parrain = pos.parrain_piece();
        k += static_cast<char>(pos.parrain_square());
        k += static_cast<char>(parrain.walk | (parrain.color << 4) | (parrain.flags << 5));
        k += static_cast<char>(pos.buried_count());
        for (int i = 0; i < pos.buried_count(); ++i) {
            const Buried& u = pos.buried(i);
            k += static_cast<char>(u.square);
            k += static_cast<char>(u.piece.walk | (u.piece.color << 4) | (u.piece.flags << 5));
        }
    }
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
};

// Whether every move changes the contents of its arrival square under the rules of `pos`
// with plain units: the mover arrives there, or under AntiCirce it leaves the square empty
// (the captured unit was there). Not where the square may get back what it held: a capturer
// that vanishes or is reborn elsewhere while the captured unit is reborn on the capture
// square (Kamikaze, Circe with AntiCirce), Anti-Mars (a non-capture from the rebirth square may
// land on the square the mover stands on: g5-g7-g5 changes no square), and the multi-unit
// effects (Atom, Hydra) and unbounded ones (max_squares_per_move 0) are left out.
bool last_move_arrives(const Position& pos, int max_change) {
    if (max_change == 0) return false;
    if (!pos.has_rules()) return true;
    const RuleSet& r = *pos.rules();
    return r.reborn != Reborn::Both && !r.kamikaze && !r.atom && !r.hydra && !r.antimars;
}

// The squares where pos differs from the target (t.plain and pos without attributes).
Bitboard differing_bits(const Position& pos, const TargetBits& t) {
    Bitboard differ = 0;
    for (Color c : {WHITE, BLACK})
        for (int w = KING; w <= PAWN; ++w) differ |= pos.pieces(c, Walk(w)) ^ t.by[c][w];
    return differ;
}

// Depth-first search of one length from one position, collecting Popeye's solution lines
// in move order. Each instance owns its failure tables; instances never share state.
class Searcher {
  public:
    Searcher(const Run& run, const Position& root, const std::vector<Move>& prefix)
        : run_(run), root_(root), stack_(prefix) {}

    // Solutions in exactly `remaining` half-moves from `pos` (reached from the root by the
    // prefix); the last mover is `goal_side`. Stops early once `limit` lines were written
    // (0 = no limit).
    void solve(Position& pos, int remaining, Color goal_side, long limit) {
        goal_side_ = goal_side;
        limit_ = limit;
        search(pos, remaining);
    }

    const std::string& text() const { return text_; }
    long found() const { return found_; }
    bool stopped() const { return stop_; }

  private:
    // proof_bound.h's values for one node, per side: moves needed, captures possible (-1:
    // not computed).
    struct Bounds {
        std::array<int, COLOR_NB> moves{-1, -1};
        std::array<int, COLOR_NB> captures{-1, -1};
        Bitboard fixed = 0;  // fixed_units
    };

    // Whether `remaining` half-moves from `pos` can still reach the target (sound bound).
    // `parent`: the bounds of the position before the last move (null at the start), whose
    // values for the side that did not move are kept when that move took nothing: its units
    // and castling rights are unchanged, and the mover can only add walls to its distances
    // (a unit of the mover that leaves the fixed ones makes the mover's own target out of reach).
    // `touched`: the squares the last move emptied or filled (all squares when not known).
    bool hopeless(const Position& pos, int remaining, Bounds& b, const Bounds* parent, bool captured,
                  Bitboard touched) const {
        if (run_.max_change == 0) return false;
        const Distance d = run_.bits.plain ? distance_bits(pos, run_.bits) : distance(pos, *run_.target);
        if (d.squares > next_move_change(pos, run_.max_change) + run_.max_change * (remaining - 1)) return true;
        const Color stm = pos.side_to_move();
        const int own = (remaining + 1) / 2, other = remaining / 2;
        if (run_.rebirth) {
            for (Color c : {stm, ~stm}) {
                const int mine = c == stm ? own : other, theirs = c == stm ? other : own;
                if (!run_.rebirth->surplus_possible(pos, *run_.target, c, mine, theirs)) return true;
                if (run_.rebirth->moves_needed(pos, *run_.target, c, mine, theirs) > mine) return true;
            }
        }
        if (!run_.bound) return false;
        const std::array<int, COLOR_NB> need = moves_needed(pos, d);
        if (need[stm] > own || need[~stm] > other) return true;
        if (!run_.distances) return false;
        const Color moved = ~stm;  // the side that made the last move (when there is a parent)
        const bool keep = parent && !captured;
        // The parent's fixed units that the move left alone are still fixed.
        const Bitboard fixed = fixed_units(pos, *run_.target, parent ? parent->fixed & ~touched : 0);
        b.fixed = fixed;
        b.moves[stm] = keep ? parent->moves[stm] : proof_moves_needed(pos, *run_.target, stm, fixed);
        if (b.moves[stm] > own) return true;
        b.moves[moved] = proof_moves_needed(pos, *run_.target, moved, fixed);
        if (b.moves[moved] > other) return true;
        // A side that must still take units sends one of its units through a square where
        // one of them can stand then (proof_captures.h).
        std::array<int, COLOR_NB> left{};
        left[stm] = own;
        left[moved] = other;
        if ((d.excess[WHITE] > 0 || d.excess[BLACK] > 0) && !proof_captures_feasible(pos, *run_.target, fixed, left))
            return true;
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
        Bounds bounds;
        if (hopeless(pos, remaining, bounds, parent, captured, touched)) return false;
        const Bounds* mine = run_.distances && bounds.moves[WHITE] >= 0 ? &bounds : nullptr;
        if (remaining == 1 && run_.arrival_changes && run_.bits.plain) return last_move(pos);
        const bool memo = remaining > 1;
        std::string code;
        if (memo) {
            code = position_code(pos);
            if (remaining < static_cast<int>(failures_.size()) && failures_[remaining]->contains(code)) return false;
        }
        MoveList list;
        popeye_ordered_moves(pos, list);
        const Color mover = pos.side_to_move();
        bool found = false;
        for (const Move& m : list) {
            if (stop_) break;
            UndoInfo u;
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
        }
        if (memo && !found && !stop_) {
            while (remaining >= static_cast<int>(failures_.size())) failures_.push_back(std::make_unique<ExactSet>());
            // Bounded, as the other solvers' tables: past the cap failures are not remembered.
            if (failures_[remaining]->size() < kMaxFailuresPerDepth) failures_[remaining]->insert(code);
        }
        return found;
    }

    // The last half-move (by the goal side): it changes every square where pos differs from
    // the target and no other, so its arrival square is one of them (run_.arrival_changes),
    // and without rules its departure square too. Only those moves are played; the ones
    // that reach the target are written in Popeye's order.
    bool last_move(Position& pos) {
        const Bitboard differ = differing_bits(pos, run_.bits);
        const Bitboard from_mask = pos.has_rules() ? ~Bitboard(0) : differ;
        MoveList list, hits;
        generate_legal(pos, list);
        for (const Move& m : list) {
            if (!(differ & square_bb(m.to)) || !(from_mask & square_bb(m.from))) continue;
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

    // Appends the line on the stack: "  1.e2-e4 e7-e5   2.Sg1-f3 dia".
    void emit() {
        std::string line = "\n";
        Position pos = root_;
        const Language lang = run_.ctx->problem.language;
        int number = 1;
        for (size_t i = 0; i < stack_.size(); ++i) {
            append_line_move(line, pos, stack_[i], lang, pos.side_to_move() == run_.first, number, true);
            line += i + 1 == stack_.size() ? run_.mark : " ";
        }
        text_ += line;
        ++found_;
        if (limit_ > 0 && found_ >= limit_) stop_ = true;
    }

    const Run& run_;
    const Position& root_;
    std::vector<Move> stack_;
    std::vector<std::unique_ptr<ExactSet>> failures_;
    static constexpr size_t kMaxFailuresPerDepth = size_t(1) << 21;
    std::string text_;
    Color goal_side_ = WHITE;
    long limit_ = 0;
    long found_ = 0;
    bool stop_ = false;
};

// Every solution of one length, in Popeye's order. With no solution limit the root moves are
// searched in parallel (each on its own position copy), their lines joined in root order.
std::string solve_length(const Run& run, const Position& root, int length, long& limit_left, bool& stopped) {
    const Color goal_side = length % 2 ? run.first : ~run.first;
    const long limit = limit_left;
    const int threads = run.ctx->threads;
    MoveList roots;
    popeye_ordered_moves(root, roots);
    if (limit > 0 || threads == 1 || length < 3 || roots.size() < 2) {
        Position pos = root;
        Searcher s(run, root, {});
        s.solve(pos, length, goal_side, limit);
        if (limit > 0) {
            limit_left -= s.found();
            stopped = s.stopped();
        }
        return s.text();
    }
    std::vector<std::string> texts(roots.size());
    auto body = [&](size_t i) {
        Position pos = root;
        UndoInfo u;
        pos.do_move(roots[i], u);
        const bool at_target = root.side_to_move() == goal_side && board_matches(pos, *run.target);
        if (at_target) return;  // the play would end after its first move
        Searcher s(run, root, {roots[i]});
        s.solve(pos, length - 1, goal_side, 0);
        texts[i] = s.text();
    };
    run_in_arena(threads, [&] { for_each_index(threads, size_t(roots.size()), body); });
    std::string text;
    for (const std::string& t : texts) text += t;
    return text;
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

bool solve_proof_game(const SolveContext& ctx, std::string& out) {
    const Stipulation& st = ctx.problem.stipulation;
    const Options& opt = ctx.problem.options;
    const bool dia = st.play == Stipulation::Play::ProofGame;
    if ((!dia && st.play != Stipulation::Play::AToB) || st.series || st.intro > 0 || st.half_moves < 1) return false;
    if (!dia && !ctx.problem.start_board) return false;

    const Board target = ctx.problem.setup.board;
    const Color first = ctx.initial.side_to_move();
    std::vector<Color> starters;
    if (!opt.half_duplex) starters.push_back(first);
    if (opt.duplex || opt.half_duplex) starters.push_back(~first);

    std::string text;
    std::unique_ptr<const RebirthBound> rebirth_bound;
    for (size_t r = 0; r < starters.size(); ++r) {
        Run run;
        run.ctx = &ctx;
        run.target = &target;
        run.mark = dia ? " dia" : " a=>b";
        run.first = starters[r];
        run.bound = !ctx.initial.has_rules();
        run.distances = proof_bound_applies(ctx.initial, target);
        run.bits = target_bits(target);
        // Units with attributes (or fairy walks, which the bitboards by walk do not hold)
        // keep the square-by-square comparison.
        run.bits.plain = run.bits.plain && plain_units(ctx.initial) && !ctx.initial.has_fairy() &&
                         std::all_of(target.begin(), target.end(), [](Piece p) { return p.walk <= PAWN; });
        run.max_change = max_squares_per_move(ctx.initial);
        run.arrival_changes = last_move_arrives(ctx.initial, run.max_change);
        if (ctx.initial.has_rules() && run.bits.plain && !rebirth_bound)
            rebirth_bound = RebirthBound::make(*ctx.initial.rules());
        if (run.bits.plain) run.rebirth = rebirth_bound.get();
        Position root = ctx.initial;
        if (root.side_to_move() != run.first) root.set_side_to_move_for_analysis(run.first);
        if (root.in_check(~run.first)) {
            text += "\n";
            continue;
        }
        // An orthodox diagram no game reaches (legality.h) has no proof game: said at once.
        if (dia && !ctx.initial.has_rules() && !ctx.initial.has_fairy()) {
            const Color to_move = st.half_moves % 2 ? ~run.first : run.first;
            const LegalityVerdict v = analyze_orthodox_legality(target, to_move);
            if (v.illegal) {
                if (ctx.notes)
                    ctx.notes->push_back(std::string(run.first == WHITE ? "White" : "Black") +
                                         " playing first: no game reaches the diagram (" + v.reason + ")");
                text += "\n";
                continue;
            }
        }
        // As in help play: every length of the same parity from the shortest (exact-: n only);
        // MaxSolutions counts the solutions of each run (phase) separately.
        const int min_length = st.exact ? st.half_moves : (st.half_moves % 2 ? 1 : 2);
        long limit_left = opt.max_solutions ? std::max(*opt.max_solutions, 1) : 0;
        bool stopped = false;
        for (int len = min_length; len <= st.half_moves && !stopped; len += 2)
            text += solve_length(run, root, len, limit_left, stopped);
        if (stopped && ctx.partial) *ctx.partial = true;
        if (!stopped || r + 1 != starters.size()) text += "\n";
    }
    out += text;
    return true;
}

}  // namespace rebirth
