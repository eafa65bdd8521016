#include "rules/movegen_rules.h"

#include <optional>

#include "core/exact_set.h"
#include "core/walk_attacks.h"
#include "rebirth/bitboard.h"
#include "rebirth/legality.h"
#include "rebirth/movegen.h"
#include "rebirth/rules.h"
#include "rules/rebirth_square.h"

namespace rebirth {

static bool unit_attacks(Walk w, Color c, Square s, Square t, Bitboard occ);

// Classic Circe rebirth squares by colour, walk and capture square (RULES.md section 3).
struct ClassicTable {
    Square sq[COLOR_NB][WALK_NB][SQUARE_NB];
    ClassicTable() {
        for (Color c : {WHITE, BLACK})
            for (int w = 0; w < WALK_NB; ++w)
                for (int s = 0; s < SQUARE_NB; ++s)
                    sq[c][w][s] = w == NO_WALK ? SQ_NONE : classic_rebirth_square(Walk(w), c, Square(s));
    }
};
const ClassicTable& classic_table() {
    static const ClassicTable t;
    return t;
}

// The rook's squares of castling m (the king to m.to): its corner, and the square the king
// passes, where it ends.
struct CastlingRook {
    Square corner, to;
};
static CastlingRook castling_rook(const Move& m) {
    const bool king_side = file_of(m.to) == 6;
    const int r = rank_of(m.to);
    return {make_square(king_side ? 7 : 0, r), make_square(king_side ? 5 : 3, r)};
}

// The occupancy after castling m, occ before it (the king from m.from, the rook from its
// corner).
static Bitboard castled_occupancy(Bitboard occ, const Move& m) {
    const CastlingRook rook = castling_rook(m);
    return (occ & ~square_bb(m.from) & ~square_bb(rook.corner)) | square_bb(m.to) | square_bb(rook.to);
}

// The square unit p standing on q moves or captures from under Mars / Anti-Mars: its classic
// rebirth square (Mirror: the other side's), or q for a king under Rex Exclusive (kings move and
// capture as in orthodox chess, BEISPIEL/mars.inp).
static inline Square mars_home(const RuleSet& R, Piece p, Square q, const ClassicTable& table = classic_table()) {
    if (p.walk == KING && R.rex == Rex::Exclusive) return q;
    const Color c = R.mirror ? ~p.color : p.color;
    if (R.frischauf && (p.flags & PF_PROMOTED)) return classic_rebirth_square(p.walk, c, q, true);
    return table.sq[c][p.walk][q];
}

// The rebirth square of `unit` taken on `on` (diagram square `origin`) under rules whose
// rebirth square does not depend on the capturer (!capturer_dependent).
static Square rebirth_square_if_taken(const RuleSet& R, Piece unit, Square on, Square origin) {
    // Classic squares without walk or square adapters (what rebirth_square computes then).
    if (R.square == SquareRule::Classic && !R.clone && !R.chameleon && !R.vertical_mirror)
        return classic_rebirth_square(unit.walk, R.mirror ? ~unit.color : unit.color, on,
                                      R.frischauf && (unit.flags & PF_PROMOTED));
    CaptureFacts f;
    f.unit = unit;
    f.capture = on;
    f.to = on;
    f.origin = origin;
    return rebirth_square(R, f, reborn_walk(R, f));
}

// The units of colour c (k's own excepted) that may be reborn on k when taken: those to ask
// rebirth_square_if_taken about. Under classic squares without adapters only the walk whose
// home square k is (by its file) or the pawns of k's file when k is on c's pawn rank.
static Bitboard may_be_reborn_on(const Position& pos, const RuleSet& R, Color c, Square k) {
    const Bitboard all = pos.pieces(c) & ~square_bb(k);
    if (R.square != SquareRule::Classic || R.clone || R.chameleon || R.vertical_mirror || R.frischauf ||
        pos.has_fairy())
        return all;
    const int rel = relative_rank(R.mirror ? ~c : c, rank_of(k));
    if (rel == 1) return all & pos.pieces(PAWN) & file_bb(file_of(k));
    if (rel != 0) return 0;
    return all & pos.pieces(BACK_RANK_WALKS[file_of(k)]);
}

// Mars Circe without other rebirth: the units of ~c with the squares they capture from (their
// rebirth square; their own for an Exclusive king), computed once per position.
// `reach`: the squares a unit attacks from its capture square on an empty board (orthodox
// walks; fairy walks: every square), which no occupancy enlarges.
struct MarsAttackers {
    int count = 0;
    std::array<Square, 64> at, from;
    std::array<Walk, 64> walk;
    std::array<Bitboard, 64> reach;
    Color color = WHITE;
};

// The empty-board reach of a unit of walk w and colour c capturing from s.
static Bitboard compute_empty_board_reach(Walk w, Color c, Square s) {
    if (s == SQ_NONE) return 0;
    return w > PAWN ? ~Bitboard(0) : unit_attack_set(w, c, s, 0);
}

// compute_empty_board_reach by colour, walk and square (SQ_NONE: no reach).
struct EmptyBoardReach {
    Bitboard reach[COLOR_NB][WALK_NB][SQUARE_NB + 1];
    EmptyBoardReach() {
        init_bitboards();
        for (Color c : {WHITE, BLACK})
            for (int w = 0; w < WALK_NB; ++w)
                for (int s = 0; s <= SQUARE_NB; ++s)
                    reach[c][w][s] =
                        w == NO_WALK || s == SQUARE_NB ? 0 : compute_empty_board_reach(Walk(w), c, Square(s));
    }
    Bitboard operator()(Walk w, Color c, Square s) const { return reach[c][w][s == SQ_NONE ? SQUARE_NB : s]; }
};
static const EmptyBoardReach& empty_board_reach() {
    static const EmptyBoardReach t;
    return t;
}

static MarsAttackers mars_attackers(const Position& pos, Color c) {
    const RuleSet& R = *pos.rules();
    const ClassicTable& table = classic_table();
    const EmptyBoardReach& reach = empty_board_reach();
    MarsAttackers a;
    a.color = ~c;
    for (Bitboard b = pos.pieces(a.color); b; ++a.count) {
        const Square q = pop_lsb(b);
        const Piece p = pos.piece_on(q);
        a.at[a.count] = q;
        a.walk[a.count] = p.walk;
        a.from[a.count] = mars_home(R, p, q, table);
        a.reach[a.count] = reach(p.walk, a.color, a.from[a.count]);
    }
    return a;
}

// Whether one of the units `a` (but the one on `captured`) takes the king on k, capturing from
// its square `from` when that is empty in `occ` or its own: the position's units with
// occupancy `occ` (the position itself, or after a move of the king's side that only moves
// its unit and may take the unit on `captured`).
static bool mars_king_attacked(const MarsAttackers& a, Square k, Bitboard occ, Square captured = SQ_NONE) {
    for (int i = 0; i < a.count; ++i) {
        const Square q = a.at[i], home = a.from[i];
        if (q == captured || !(a.reach[i] & square_bb(k))) continue;
        if (home == q) {
            if (unit_attacks(a.walk[i], a.color, q, k, occ)) return true;
        } else if (home != SQ_NONE && !(occ & square_bb(home))) {
            if (unit_attacks(a.walk[i], a.color, home, k, (occ ^ square_bb(q)) | square_bb(home))) return true;
        }
    }
    return false;
}

// The units of `a` that attack k from their capture square on an empty board: the only ones
// that can take a king staying on k, whatever the occupancy.
static MarsAttackers mars_attackers_of(const MarsAttackers& a, Square k) {
    MarsAttackers out;
    out.color = a.color;
    for (int i = 0; i < a.count; ++i) {
        if (!(a.reach[i] & square_bb(k))) continue;
        out.at[out.count] = a.at[i];
        out.from[out.count] = a.from[i];
        out.reach[out.count] = a.reach[i];
        out.walk[out.count++] = a.walk[i];
    }
    return out;
}

// The squares the units `a` attack from their capture squares with occupancy occ (orthodox
// walks): for a king removed from occ (its square left empty, no unit's capture square taken
// by it), a square s outside the map is one where that king is not taken, unless the king's
// arrival on s takes a unit of `a` or fills a unit's capture square other than s.
static Bitboard mars_attack_map(const MarsAttackers& a, Bitboard occ) {
    Bitboard map = 0;
    for (int i = 0; i < a.count; ++i) {
        const Square q = a.at[i], home = a.from[i];
        Square from;
        Bitboard o = occ;
        if (home == q) {
            from = q;
        } else if (home != SQ_NONE && !(occ & square_bb(home))) {
            from = home;
            o = (occ ^ square_bb(q)) | square_bb(home);
        } else {
            continue;
        }
        map |= unit_attack_set(a.walk[i], a.color, from, o);
    }
    return map;
}

// Turncoats or April: the reborn unit changes side, or some walks are not reborn. The
// capture shortcuts below assume neither; these rules play their captures (quiet moves, whose
// legality the orthodox attack decides here too, keep theirs).
static bool exotic_rebirth(const RuleSet& R) { return R.turncoat || R.april != 0; }

// Whether a move changes nothing but the squares of the units it moves (and removes the unit
// it takes), with orthodox walks: no extra effect (Alsatian, atoms, Kamikaze, Hydra), nothing
// buried, no first-rank pawn steps, no pending Parrain rebirth. The Mars and Assassin shortcuts
// rest on it.
static bool plain_effects(const Position& pos) {
    const RuleSet& R = *pos.rules();
    return pos.king_square(pos.side_to_move()) != SQ_NONE && !pos.has_fairy() && !R.alsatian && !R.atom &&
           !R.kamikaze && !R.hydra && pos.buried_count() == 0 && !first_rank_pawns_move(R) && !delayed_rebirth(R) &&
           !exotic_rebirth(R);
}

// Mars Circe alone with plain effects: a king on k with occupancy occ is taken exactly when
// mars_king_attacked(mars_attackers(pos, c), k, occ) says so.
static bool mars_plain(const Position& pos) {
    const RuleSet& R = *pos.rules();
    return R.mars && !R.antimars && R.reborn == Reborn::None && plain_effects(pos);
}

static bool quiet_legal_if_orthodox_legal(const Position& pos);

namespace {

// Anti-Circe: the square the capturer (walk after promotion, `capturer`) goes to after
// capturing on `to` from `from`, and the walk it has there (Chameleon). False when the rules
// forbid the capture (occupied square under Strict, own square under Cheylan); r = SQ_NONE
// when it stays on `to` without rebirth (Relaxed).
bool anticirce_square(const Position& pos, const RuleSet& R, Piece capturer, Square from, Square to, Square& r,
                      Walk& walk) {
    // An en passant capture takes on the square of the pawn it takes (Popeye 4.104: under
    // Symmetry "e5*f6 ep.[wPf6->c4]", the square across from f5; under Couscous
    // "c4*d3 ep.[bPd3->d2]", the taken pawn's square).
    const bool ep = capturer.walk == PAWN && pos.empty(to) && to == pos.ep_square();
    const Square taken_on = ep ? Square(capturer.color == WHITE ? to - 8 : to + 8) : to;
    CaptureFacts f;
    f.unit = capturer;
    f.capture = taken_on;
    f.from = from;
    f.to = to;
    // Couscous turned around: the square of the other unit of the capture (the captured one).
    const Piece other = pos.piece_on(taken_on);
    f.capturer = other.empty() ? capturer : other;
    f.capturer_walk_before = capturer.walk;
    f.origin = pos.origin(from);
    walk = reborn_walk(R, f);
    if (!april_reborn(R, walk)) {
        r = SQ_NONE;  // April: a walk not listed is not reborn, the capturer stays
        return true;
    }
    if (capturer.walk == KING && R.rex == Rex::Exclusive) {
        r = SQ_NONE;  // kings are not reborn
        return true;
    }
    r = rebirth_square(R, f, walk);
    if (r == to) return !R.cheylan;
    // The square the capturer left, and the square of the pawn an en passant capture takes
    // (Anti-Circe Rank: "e5*f6 ep.[wPf6->f5]"), are empty after the capture.
    if (r != SQ_NONE && (r == from || pos.empty(r) || (ep && r == taken_on))) return true;
    if (r != SQ_NONE && (R.occupied == Occupied::Volcanic || R.occupied == Occupied::Assassin ||
                         R.occupied == Occupied::Ultra || R.occupied == Occupied::Parachute))
        return true;  // buried, the occupant lifted or removed (a king: the move fails when played)
    if (R.occupied == Occupied::Relaxed && !R.april) {  // April: no fall-back (captured_choices)
        r = SQ_NONE;
        return true;
    }
    return false;
}

class RuleGen {
  public:
    // `by_make`: the reference generator, every cage tested by playing the moves.
    RuleGen(const Position& pos, Color side, MoveList& list, bool by_make = false)
        : pos_(pos), R_(*pos.rules()), side_(side), list_(list), occ_(pos.pieces()), by_make_(by_make) {
        if (R_.reborn == Reborn::Both) anti_ = capturer_rules(R_);  // the Anti-Circe half's, for the capturer
    }

    // Every pseudo-legal capture of side_ (en passant included).
    void captures_only() {
        run(pos_.pieces(~side_), false);
        en_passant(pos_.pieces(~side_));
    }

    // Every pseudo-legal move of side_ (see generate_rule_moves).
    void run(Bitboard targets, bool quiet) {
        for (Bitboard b = pos_.pieces(side_); b;) unit(pop_lsb(b), targets, quiet);
        if (quiet && side_ == pos_.side_to_move()) special_moves(targets);
    }

    // The castlings and en passant captures of the side to move, in run()'s order.
    void special_moves(Bitboard targets) {
        if (R_.antimars) {
            // Castling from the king's rebirth square (king flag forced), also with a rook
            // sent to its rebirth square, and once more on the capture path.
            antimars_castling();
            castling(false);
        } else {
            castling(false);
            // The king's second path, from its rebirth square (not for an exclusive king).
            if (R_.mars && R_.rex == Rex::Inclusive) castling(true);
        }
        en_passant(targets);
    }

    // The pseudo-legal moves of side_'s unit on q (castling and en passant left out).
    void unit(Square q, Bitboard targets, bool quiet) {
        {
            const Piece p = pos_.piece_on(q);
            const Square home = mars_square(p, q);
            if (R_.mars) {
                if (quiet) unit_moves(p, q, q, occ_, 0, true);
                if (home == q)
                    unit_moves(p, q, q, occ_, targets, false);
                else if (home != SQ_NONE && pos_.empty(home))
                    unit_moves(p, q, home, (occ_ ^ square_bb(q)) | square_bb(home), targets, false);
            } else if (R_.antimars) {
                unit_moves(p, q, q, occ_, targets, false);
                if (quiet) {
                    if (home == q)
                        unit_moves(p, q, q, occ_, 0, true);
                    else if (home != SQ_NONE && pos_.empty(home)) {
                        // Popeye 4.104 drops a move back onto the unit's own square, except a
                        // pawn's double step (d4-d2-d4 exists).
                        const int before = list_.size();
                        unit_moves(p, q, home, (occ_ ^ square_bb(q)) | square_bb(home), 0, true);
                        int kept = before;
                        for (int i = before; i < list_.size(); ++i) {
                            const Move& mv = list_[i];
                            const bool double_step = p.walk == PAWN && (mv.to - home == 16 || home - mv.to == 16);
                            if (mv.to != q || double_step) list_[kept++] = mv;
                        }
                        list_.truncate(kept);
                    }
                }
            } else {
                unit_moves(p, q, q, occ_, targets, quiet);
            }
        }
    }

  private:
    // Mars / Anti-Mars departure square of unit p standing on q (its classic rebirth
    // square computed from q).
    Square mars_square(Piece p, Square q) const { return R_.mars || R_.antimars ? mars_home(R_, p, q) : q; }

    // Moves of unit p (standing on q) as if it stood on d with occupancy occ: captures of
    // units on `targets`, non-captures when `quiet`.
    void unit_moves(Piece p, Square q, Square d, Bitboard occ, Bitboard targets, bool quiet) {
        const Bitboard enemies = pos_.pieces(~side_) & targets;
        const Square via = d == q ? SQ_NONE : d;
        if (p.walk == PAWN) {
            const int rr = relative_rank(side_, rank_of(d));
            if (rr == 7 || (rr == 0 && !first_rank_pawns_move(R_))) return;
            const int up = side_ == WHITE ? 8 : -8;
            const bool promo = rr == 6;
            if (quiet) {
                const Square one = Square(d + up);
                if (!(occ & square_bb(one)) || one == q) {
                    push(q, one, via, promo);
                    const Square two = Square(one + up);
                    if (rr == 1 && (!(occ & square_bb(two)) || two == q)) push(q, two, via, false);
                }
            }
            for (Bitboard t = pawn_attacks(side_, d) & enemies; t;) push(q, pop_lsb(t), via, promo);
            return;
        }
        const Bitboard t = walk_targets(p.walk, d, occ);
        for (Bitboard c = t & enemies; c;) push(q, pop_lsb(c), via, false);
        if (quiet)
            for (Bitboard n = t & ~occ; n;) push(q, pop_lsb(n), via, false);
    }

    // One base move (all promotions), expanded into its rule choices.
    void push(Square from, Square to, Square via, bool promo) {
        Move m;
        m.from = from;
        m.to = to;
        m.extra = via;
        if (!promo) {
            expand(m);
            return;
        }
        m.kind = MoveKind::Promotion;
        for (int i = 0; i < pos_.promotion_walk_count(); ++i) {
            m.promotion = pos_.promotion_walks()[i];
            expand(m);
        }
    }

    // Whether square s is empty after the capture from `from` to `to` (capturing on cap), and
    // after the capturer went to capturer_square_ (Circe + Anti-Circe).
    bool empty_after(Square s, Square from, Square to, Square cap) const {
        if (capturer_square_ != SQ_NONE) {
            if (s == capturer_square_) return false;
            if (s == to) return true;
        }
        if (s == to) return R_.kamikaze;
        if (s == from || s == cap) return true;
        return pos_.empty(s);
    }

    void expand(Move m) {
        const Square cap = capture_square(m, side_);
        const Piece captured = pos_.piece_on(cap);
        if (captured.empty() || R_.mars || delayed_rebirth(R_)) {
            if (!parrain_like(R_) || pos_.parrain_square() == SQ_NONE)
                list_.push(m);
            else
                parrain_choices(m);
            return;
        }
        const Piece mover = pos_.piece_on(m.from);
        Piece capturer = mover;
        if (m.kind == MoveKind::Promotion) {
            capturer.walk = m.promotion;
            capturer.flags |= PF_PROMOTED;
        }
        if (R_.reborn == Reborn::Capturer || R_.reborn == Reborn::Both) {
            anti_circe(m, capturer, cap, captured, mover);
            return;
        }
        if (R_.reborn == Reborn::None) {
            list_.push(m);
            return;
        }
        if (R_.kamikaze && mover.walk == KING) return;  // the king may not vanish
        captured_choices(m, cap, captured, capturer, mover);
    }

    // The choices of the captured unit's rebirth (Circe types) for capture m.
    void captured_choices(Move m, Square cap, Piece captured, Piece capturer, Piece mover) {
        if (captured.walk == KING && R_.rex == Rex::Exclusive) {
            list_.push(m);  // kings are never reborn
            return;
        }
        CaptureFacts f;
        f.unit = captured;
        f.capture = cap;
        f.from = m.from;
        f.to = m.to;
        f.capturer = capturer;
        f.capturer_walk_before = mover.walk;
        f.origin = pos_.origin(cap);
        const Walk walk = reborn_walk(R_, f);
        if (!april_reborn(R_, walk)) {
            list_.push(m);  // April: a walk not listed is taken as in orthodox chess
            return;
        }
        switch (R_.square) {
            case SquareRule::Super:
                if (R_.occupied != Occupied::Strict) list_.push(m);  // no rebirth is a choice too
                for (int s = 0; s < SQUARE_NB; ++s)
                    if (empty_after(Square(s), m.from, m.to, cap)) rebirth_on(m, Square(s), walk, captured.color);
                return;
            case SquareRule::TakeMake:
                take_and_make(m, cap, captured, walk);
                return;
            case SquareRule::Cage:
                cage(m, cap, captured, walk);
                return;
            default:
                break;
        }
        // April: Popeye 4.104 makes a listed walk's rebirth a choice that never falls back on
        // no rebirth (rebirth_square_occupied.c, rebirth_reason choice): with no square (off
        // the board) or an occupied one under Relaxed rules the capture is not played.
        const Square r = rebirth_square(R_, f, walk);
        if (r == SQ_NONE) {
            if (!R_.april) list_.push(m);
            return;
        }
        if (!empty_after(r, m.from, m.to, cap) && !R_.hydra) {  // Hydra may still use the mirror square
            switch (R_.occupied) {
                case Occupied::Relaxed:
                    if (!R_.april) list_.push(m);
                    return;
                case Occupied::Strict:
                    return;
                default:
                    break;
            }
        }
        rebirth_on(m, r, walk, captured.color);
    }

    // The capture m with the captured unit reborn on r (one move per promotion choice when
    // a pawn is reborn on its last rank).
    void rebirth_on(Move m, Square r, Walk walk, Color c) {
        m.rebirth = r;
        if (walk == PAWN && last_rank(c, r) && rebirth_promotes(R_)) {
            for (int i = 0; i < pos_.promotion_walk_count(); ++i) {
                m.rebirth_walk = pos_.promotion_walks()[i];
                list_.push(m);
            }
            return;
        }
        m.rebirth_walk = walk;
        list_.push(m);
    }

    // Anti-Circe: the capturer (as promoted) goes to its rebirth square, which must be
    // empty (its departure counts as empty); on its own rebirth square it stays (Calvet) or
    // may not capture (Cheylan).
    void anti_circe(Move m, Piece capturer, Square cap, Piece captured, Piece mover) {
        const RuleSet& A = R_.reborn == Reborn::Both ? anti_ : R_;
        // Passes one capturer choice on (Circe + Anti-Circe: to the captured unit's choices).
        auto pass_on = [&](Move mm) {
            if (R_.reborn != Reborn::Both) {
                list_.push(mm);
                return;
            }
            capturer_square_ = mm.extra == SQ_NONE ? m.to : mm.extra;
            captured_choices(mm, cap, captured, capturer, mover);
            capturer_square_ = SQ_NONE;
        };
        // A pawn reborn on its last rank promotes where the square rule allows it.
        auto next = [&](Move mm) {
            const Walk w = mm.spare != NO_WALK ? mm.spare : capturer.walk;
            if (w == PAWN && mm.extra != SQ_NONE && last_rank(capturer.color, mm.extra) && rebirth_promotes(A)) {
                for (int i = 0; i < pos_.promotion_walk_count(); ++i) {
                    mm.spare = pos_.promotion_walks()[i];
                    pass_on(mm);
                }
                return;
            }
            pass_on(mm);
        };
        if (A.square == SquareRule::Super || A.square == SquareRule::Cage) {
            // Any square empty after the capture, the capture square itself unless Cheylan;
            // no rebirth only when Relaxed. Cage: only squares where the reborn capturer has
            // no legal non-capturing move (Popeye's conditions/circe/cage.c: the cage is
            // tested for the reborn unit's side, here the capturer's); without a cage the
            // capture is illegal unless Relaxed (REGRESSIONS 4.85-4.87, AntiCirce Cage h#2).
            const bool cage = A.square == SquareRule::Cage;
            CaptureFacts f;
            f.unit = capturer;
            f.capture = m.to;
            f.from = m.from;
            f.to = m.to;
            f.capturer = capturer;
            f.capturer_walk_before = capturer.walk;
            const Walk walk = reborn_walk(A, f);
            if (!april_reborn(A, walk)) {
                next(m);  // April: a walk not listed stays where it took
                return;
            }
            if (A.occupied == Occupied::Relaxed && !cage) next(m);
            bool caged_any = false;
            for (int s = 0; s < SQUARE_NB; ++s) {
                const Square sq = Square(s);
                if (sq == m.to ? A.cheylan : !(sq == m.from || sq == cap || pos_.empty(sq))) continue;
                Move mm = m;
                mm.extra = sq;
                mm.spare = walk != capturer.walk ? walk : NO_WALK;
                if (cage) {
                    // A pawn is never caged on its last rank (it does not promote there).
                    if (walk == PAWN && last_rank(capturer.color, sq)) continue;
                    if (!capturer_caged(mm, capturer.color)) continue;
                    caged_any = true;
                }
                next(mm);
            }
            if (cage && !caged_any && A.occupied == Occupied::Relaxed) next(m);
            return;
        }
        Square r;
        Walk walk;
        if (!anticirce_square(pos_, A, capturer, m.from, m.to, r, walk)) return;
        m.extra = r;
        m.spare = walk != capturer.walk ? walk : NO_WALK;
        next(m);
    }

    // Parrain: a non-capture that also places the unit captured by the previous move; a
    // pawn placed on its last rank promotes (one move per walk).
    void parrain_choices(Move m) {
        const Piece unit = pos_.parrain_piece();
        int df = file_of(m.to) - file_of(m.from), dr = rank_of(m.to) - rank_of(m.from);
        if (m.kind == MoveKind::Castling) df += file_of(m.to) == 6 ? -2 : 3;
        if (R_.square == SquareRule::ContraParrain) {
            df = -df;
            dr = -dr;
        }
        const int f = file_of(pos_.parrain_square()) + df, r = rank_of(pos_.parrain_square()) + dr;
        const Square s = on_board(f, r) ? make_square(f, r) : SQ_NONE;
        // The target must be empty after the move (the mover's departure square is).
        const bool empty =
            s != SQ_NONE && s != m.to && (s == m.from || pos_.empty(s)) &&
            (m.kind != MoveKind::Castling || s != make_square(file_of(m.to) == 6 ? 5 : 3, rank_of(m.to)));
        if (unit.walk == PAWN && empty && last_rank(unit.color, s)) {
            for (int i = 0; i < pos_.promotion_walk_count(); ++i) {
                m.rebirth_walk = pos_.promotion_walks()[i];
                list_.push(m);
            }
            return;
        }
        list_.push(m);
    }

    // Castling from the king's home square. Without `force_king` the king must stand there
    // with its right; with it (Mars Circe's second path) the king is lifted onto its empty
    // rebirth square e1/e8 and castles from there without its own right.
    void castling(bool force_king) {
        const Color us = side_;
        const Square k = us == WHITE ? SQ_E1 : SQ_E8;
        const Square kq = pos_.king_square(us);
        if (kq == SQ_NONE) return;
        if (force_king ? (kq != k && !pos_.empty(k)) : (kq != k || !(pos_.castling_rights() & square_bb(k)))) return;
        const Bitboard occ = (occ_ ^ square_bb(kq)) | square_bb(k);
        // Without by_make_: under Mars Circe alone the king's safety on a square comes from the
        // enemy units' capture squares; where a king is taken only by a unit attacking it, a
        // square no enemy unit attacks is safe. Otherwise the king's moves are played.
        const bool mars = !by_make_ && mars_plain(pos_);
        const bool orthodox_attack = !by_make_ && !mars && quiet_legal_if_orthodox_legal(pos_);
        std::optional<MarsAttackers> attackers;
        std::optional<Bitboard> map;  // with the king on k already (no lift), taken out of occ
        auto direct_safe = [&](Square s, Bitboard o) -> std::optional<bool> {
            if (mars) {
                if (!attackers) attackers = mars_attackers(pos_, us);
                if (kq != k) return !mars_king_attacked(*attackers, s, o);
                if (!map) map = mars_attack_map(*attackers, occ_ ^ square_bb(k));
                return !(*map & square_bb(s));
            }
            if (orthodox_attack && !pos_.attackers_to(s, ~us, o)) return true;
            return std::nullopt;
        };
        std::optional<Position> home;
        auto home_position = [&]() -> Position* {
            if (!home) {
                home.emplace(pos_);
                if (kq != k) {
                    Move lift;
                    lift.from = kq;
                    lift.to = k;
                    UndoInfo lu;
                    if (!home->do_rules_move(lift, lu)) return nullptr;
                }
            }
            return &*home;
        };
        if (const auto safe = direct_safe(k, occ)) {
            if (!*safe) return;
        } else {
            Position* h = home_position();
            if (!h || h->in_check(us)) return;
        }
        const int r = rank_of(k);
        for (bool king_side : {true, false}) {
            const Square rook = make_square(king_side ? 7 : 0, r);
            if (!(pos_.castling_rights() & square_bb(rook))) continue;
            if (between_bb(k, rook) & occ) continue;
            const Square pass = make_square(king_side ? 5 : 3, r);
            const Square dest = make_square(king_side ? 6 : 2, r);
            // The king may not pass through check: play the one-step king move and test. Popeye
            // only moves the king there, so a pending Parrain rebirth (which the step would
            // trigger) plays no part; Parrain's check is orthodox.
            if (parrain_like(R_) && pos_.parrain_square() != SQ_NONE) {
                if (pos_.attackers_to(pass, ~us, (occ ^ square_bb(k)) | square_bb(pass))) continue;
            } else if (const auto safe = direct_safe(pass, (occ ^ square_bb(k)) | square_bb(pass))) {
                if (!*safe) continue;
            } else {
                Move step;
                step.from = k;
                step.to = pass;
                Position* h = home_position();
                if (!h) return;
                Position scratch = *h;
                UndoInfo u;
                if (!scratch.do_rules_move(step, u)) continue;
                const bool attacked = scratch.in_check(us);
                scratch.undo_move(step, u);
                if (attacked) continue;
            }
            Move m;
            m.from = kq;
            m.to = dest;
            m.kind = MoveKind::Castling;
            expand(m);
        }
    }

    // Take&Make: the captured unit, standing on its capture square instead of the capturer,
    // makes a non-capturing move of its walk; each arrival is a rebirth choice. Without such a
    // move the capture is illegal.
    void take_and_make(Move m, Square cap, Piece captured, Walk walk) {
        Bitboard occ = occ_ ^ square_bb(m.from);
        if (cap != m.to) occ |= square_bb(m.to);  // en passant: the capturer stands behind
        Bitboard arrivals = 0;
        if (walk == PAWN) {
            const int rr = relative_rank(captured.color, rank_of(cap));
            const int up = captured.color == WHITE ? 8 : -8;
            if (rr != 0 && rr != 7) {
                const Square one = Square(cap + up);
                if (!(occ & square_bb(one))) {
                    arrivals |= square_bb(one);
                    const Square two = Square(one + up);
                    if (rr == 1 && !(occ & square_bb(two))) arrivals |= square_bb(two);
                }
            }
        } else {
            arrivals = walk_targets(walk, cap, occ) & ~occ;
        }
        for (Bitboard b = arrivals; b;) rebirth_on(m, pop_lsb(b), walk, captured.color);
    }

    // Cage: rebirth on an empty square where the reborn unit then has no legal non-capturing
    // move; without any such square the capture is played without rebirth (not under Strict).
    void cage(Move m, Square cap, Piece captured, Walk walk) {
        MoveList options;
        RuleGen sub(pos_, side_, options);
        for (int s = 0; s < SQUARE_NB; ++s)
            if (empty_after(Square(s), m.from, m.to, cap)) sub.rebirth_on(m, Square(s), walk, captured.color);
        bool any = false;
        Position scratch = pos_;
        // The check test generates the captures of the side not to move.
        if (scratch.side_to_move() != side_) scratch.set_side_to_move_for_analysis(side_);
        // Where check is an orthodox attack on the king and the reborn unit is no king, the
        // board after the capture without rebirth decides: with the king of the captured side
        // not in check there, a reborn unit is caged exactly when it has no free square.
        Bitboard occ_after = 0;
        bool fast = !by_make_ && !pos_.has_fairy() && !R_.mars && !R_.antimars && !delayed_rebirth(R_) &&
                    R_.reborn == Reborn::Captured && R_.rex == Rex::Exclusive && R_.occupied != Occupied::Assassin &&
                    R_.occupied != Occupied::Ultra;
        if (fast) {
            UndoInfo u;
            fast = scratch.do_rules_move(m, u);
            if (fast) {
                occ_after = scratch.pieces();
                fast = !scratch.in_check(captured.color);
                scratch.undo_move(m, u);
            }
        }
        for (const Move& o : options) {
            if (fast && o.rebirth_walk != KING) {
                if (no_free_square(o.rebirth, o.rebirth_walk, captured.color, occ_after)) list_.push(o), any = true;
                continue;
            }
            UndoInfo u;
            if (!scratch.do_rules_move(o, u)) continue;
            const bool caged = !has_legal_quiet_move(scratch, o.rebirth);
            scratch.undo_move(o, u);
            if (caged) {
                list_.push(o);
                any = true;
            }
        }
        if (!any && R_.occupied != Occupied::Strict) list_.push(m);
    }

    // Whether a unit of walk w and colour c reborn on r (occupancy `occ` without it) has no
    // free square to go to. Where its king is not in check without it and check is an
    // orthodox attack, this is whether it is caged: it cannot be pinned either (a line from
    // its king through r to a unit pinning it would be a check without it).
    bool no_free_square(Square r, Walk w, Color c, Bitboard occ) const {
        occ |= square_bb(r);
        if (w != PAWN) return (walk_targets(w, r, occ) & ~occ) == 0;
        const int rr = relative_rank(c, rank_of(r));
        if (rr == 7 || (rr == 0 && !first_rank_pawns_move(R_))) return true;
        return (occ & square_bb(Square(r + (c == WHITE ? 8 : -8)))) != 0;
    }

    // Anti-Circe Cage: whether the capturer, reborn as move m (a full choice) places it,
    // has no legal non-capturing move from its rebirth square (its own side to move).
    bool capturer_caged(const Move& m, Color capturer_side) const {
        // Popeye's cage test generates a pawn's moves as if from any other square: on its
        // first rank it has none (BEISPIEL-style test: e3*d2[bPd2->b8]).
        const Walk walk = m.spare != NO_WALK ? Walk(m.spare) : pos_.piece_on(m.from).walk;
        if (walk == PAWN && m.kind != MoveKind::Promotion && first_rank(capturer_side, m.extra)) return true;
        // With orthodox walks and quiet moves that only move their unit, a unit with no empty
        // square to step to from its rebirth square has no quiet move, legal or not.
        if (walk != KING && m.kind != MoveKind::Promotion && !pos_.has_fairy() && !R_.mars && !R_.antimars &&
            !delayed_rebirth(R_) && pos_.buried_count() == 0) {
            const Bitboard occ = occ_ & ~square_bb(m.from) & ~square_bb(capture_square(m, capturer_side));
            if (no_free_square(m.extra, walk, capturer_side, occ)) return true;
        }
        Position scratch = pos_;
        // The check test generates the captures of the side not to move.
        if (scratch.side_to_move() != capturer_side) scratch.set_side_to_move_for_analysis(capturer_side);
        UndoInfo u;
        if (!scratch.do_rules_move(m, u)) return false;
        Position probe = scratch;
        probe.set_side_to_move_for_analysis(capturer_side);
        return !has_legal_quiet_move(probe, m.extra);
    }

    // Whether the unit on s (of the side to move in pos) has a legal non-capturing move.
    static bool has_legal_quiet_move(Position& pos, Square s) {
        MoveList quiet;
        const Color side = pos.side_to_move();
        RuleGen(pos, side, quiet).unit(s, 0, true);
        for (const Move& q : quiet) {
            UndoInfo u;
            if (!pos.do_rules_move(q, u)) continue;
            const bool legal = !pos.in_check(side);
            pos.undo_move(q, u);
            if (legal) return true;
        }
        return false;
    }

    // Anti-Mars castling: the king castles from its rebirth square e1/e8 (its own right is not
    // needed). One round uses the real rook rights; then each rook off its rebirth square
    // a1/h1/a8/h8 (if empty, or the king's) is put there with that corner's right set, and a
    // further round castles to either side the rights then allow (Popeye's castling generator
    // sees every right). The round's first castling (king side first) takes the moved rook
    // (m.extra) along: it castles from its corner, or stays there when the king castles to
    // the other side ("[wRa3->a1]0-0", the rook then on a1). A later castling of the round
    // leaves it where it stood (Popeye 4.104 keeps the lift for the round's first generated
    // move only), unless the moved rook is its castling partner (README: known Popeye
    // defects).
    void antimars_castling() {
        const Color us = side_;
        const Square kq = pos_.king_square(us);
        if (kq == SQ_NONE) return;
        const Square e = us == WHITE ? SQ_E1 : SQ_E8;
        if (kq != e && !pos_.empty(e)) return;
        const int r = rank_of(e);
        const Bitboard corners = square_bb(make_square(0, r)) | square_bb(make_square(7, r));
        auto round = [&](Bitboard rights, Square rq, Square corner) {
            Bitboard occ = (occ_ ^ square_bb(kq)) | square_bb(e);
            if (rq != SQ_NONE) occ = (occ ^ square_bb(rq)) | square_bb(corner);
            bool first = true;
            for (bool king_side : {true, false}) {
                const Square c = make_square(king_side ? 7 : 0, r);
                if (!(rights & square_bb(c)) || (between_bb(e, c) & occ)) continue;
                const Square pass = make_square(king_side ? 5 : 3, r);
                if (pos_.attackers_to(e, ~us, occ) || pos_.attackers_to(pass, ~us, occ)) continue;
                Move m;
                m.from = kq;
                m.to = make_square(king_side ? 6 : 2, r);
                m.kind = MoveKind::Castling;
                m.extra = first || c == corner ? rq : SQ_NONE;
                first = false;
                list_.push(m);
            }
        };
        const Bitboard rights = pos_.castling_rights() & corners;
        round(rights, SQ_NONE, SQ_NONE);
        for (Bitboard b = pos_.pieces(us, ROOK); b;) {
            const Square rq = pop_lsb(b);
            const Square corner = classic_rebirth_square(ROOK, us, rq);
            // The corner may hold the king itself, which goes to e1/e8 first (Popeye 4.104:
            // "[bKh8->e8][bRg5->h8]0-0").
            if (corner != rq && (corners & square_bb(corner)) && (pos_.empty(corner) || corner == kq))
                round(rights | square_bb(corner), rq, corner);
        }
    }

    void en_passant(Bitboard targets) {
        const Square ep = pos_.ep_square();
        if (ep == SQ_NONE || R_.mars) return;
        const Square cap = Square(side_ == WHITE ? ep - 8 : ep + 8);
        if (!(targets & square_bb(cap))) return;
        for (Bitboard b = pawn_attacks(~side_, ep) & pos_.pieces(side_, PAWN); b;) {
            Move m;
            m.from = pop_lsb(b);
            m.to = ep;
            m.kind = MoveKind::EnPassant;
            expand(m);
        }
    }

    const Position& pos_;
    const RuleSet& R_;
    const Color side_;
    MoveList& list_;
    const Bitboard occ_;
    const bool by_make_;
    RuleSet anti_;                      // Circe + Anti-Circe: the capturer's rules
    Square capturer_square_ = SQ_NONE;  // where the capturer went (Circe + Anti-Circe)
};

}  // namespace

void generate_rule_moves(const Position& pos, Color side, Bitboard targets, bool quiet, MoveList& list, bool by_make) {
    RuleGen(pos, side, list, by_make).run(targets, quiet);
}

// Legal moves of the side to move under Mars Circe alone with plain effects (mars_plain), in
// generate_rule_moves' order: per unit (by square) its non-captures from its square, then its
// captures from its capture square (mars_home, when that is its own or empty), then castling.
// Legality from the enemy units' capture squares: a king step is checked against their attack
// map, any other move only against the units whose capture square sees the king.
// With `first_only`, stops once a unit has a legal move (rules_has_legal_move).
template <Color Us>
static void mars_plain_legal(const Position& pos, MoveList& list, bool first_only = false) {
    constexpr Color Them = Color(Us ^ 1);
    const RuleSet& R = *pos.rules();
    const Square ksq = pos.king_square(Us);
    const Bitboard occ = pos.pieces(), theirs = pos.pieces(Them);
    const MarsAttackers all = mars_attackers(pos, Us);
    const MarsAttackers near = mars_attackers_of(all, ksq);
    std::optional<Bitboard> king_map;
    auto legal = [&](Square from, Square to) {
        const bool capture = (theirs & square_bb(to)) != 0;
        const Bitboard after = (occ ^ square_bb(from)) | square_bb(to);
        if (from == ksq) {
            if (capture) return !mars_king_attacked(all, to, after, to);
            if (!king_map) king_map = mars_attack_map(all, occ ^ square_bb(ksq));
            return !(*king_map & square_bb(to));
        }
        return near.count == 0 || !mars_king_attacked(near, ksq, after, capture ? to : SQ_NONE);
    };
    auto add = [&](Square from, Square to, Square via, bool promo) {
        if (!legal(from, to)) return;
        Move m;
        m.from = from;
        m.to = to;
        m.extra = via;
        if (!promo) {
            list.push(m);
            return;
        }
        m.kind = MoveKind::Promotion;
        for (int i = 0; i < pos.promotion_walk_count(); ++i) {
            m.promotion = pos.promotion_walks()[i];
            list.push(m);
        }
    };
    constexpr int up = Us == WHITE ? 8 : -8;
    const ClassicTable& table = classic_table();
    for (Bitboard b = pos.pieces(Us); b;) {
        const Square q = pop_lsb(b);
        const Piece p = pos.piece_on(q);
        const Square home = mars_home(R, p, q, table);
        Square d = SQ_NONE;  // the capture square, when usable
        Bitboard docc = occ;
        if (home == q) {
            d = q;
        } else if (home != SQ_NONE && !(occ & square_bb(home))) {
            d = home;
            docc = (occ ^ square_bb(q)) | square_bb(home);
        }
        const Square via = d == q ? SQ_NONE : d;
        if (p.walk == PAWN) {
            const int rr = relative_rank(Us, rank_of(q));
            if (rr != 7 && rr != 0) {
                const Square one = Square(q + up);
                if (!(occ & square_bb(one))) {
                    add(q, one, SQ_NONE, rr == 6);
                    const Square two = Square(one + up);
                    if (rr == 1 && !(occ & square_bb(two))) add(q, two, SQ_NONE, false);
                }
            }
            if (d != SQ_NONE) {
                const int dr = relative_rank(Us, rank_of(d));
                if (dr != 7 && dr != 0)
                    for (Bitboard t = pawn_attacks(Us, d) & theirs; t;) add(q, pop_lsb(t), via, dr == 6);
            }
            if (first_only && !list.empty()) return;
            continue;
        }
        for (Bitboard t = walk_targets(p.walk, q, occ) & ~occ; t;) add(q, pop_lsb(t), SQ_NONE, false);
        if (d != SQ_NONE)
            for (Bitboard t = walk_targets(p.walk, d, docc) & theirs; t;) add(q, pop_lsb(t), via, false);
        if (first_only && !list.empty()) return;
    }
    // Castling: the king on its home square with its right, not taken there nor on the square it
    // passes (both read from the attack map without the king), nor where it ends with the rook
    // moved. The Rex Inclusive second path (a king lifted onto its empty home square) is RuleGen's.
    constexpr Square k = Us == WHITE ? SQ_E1 : SQ_E8;
    const Bitboard rights = pos.castling_rights();
    // The castling of the king on k to dest when it ends safe (the rook moved); null otherwise.
    auto castling_to = [&](Square dest) {
        Move m;
        m.from = k;
        m.to = dest;
        m.kind = MoveKind::Castling;
        return mars_king_attacked(all, dest, castled_occupancy(occ, m)) ? Move{} : m;
    };
    // A king on its home square castles once with its right and, under Rex Inclusive, once more
    // by the second path, which needs no right of its own (as RuleGen's castling(true)).
    const int paths = ksq != k ? 0 : ((rights & square_bb(k)) ? 1 : 0) + (R.rex == Rex::Inclusive ? 1 : 0);
    if (paths > 0) {
        constexpr int r = Us == WHITE ? 0 : 7;
        constexpr Square h = make_square(7, r), a = make_square(0, r);
        const bool king_side = (rights & square_bb(h)) && !(between_bb(k, h) & occ);
        const bool queen_side = (rights & square_bb(a)) && !(between_bb(k, a) & occ);
        if (king_side || queen_side) {
            if (!king_map) king_map = mars_attack_map(all, occ ^ square_bb(ksq));
            if (!(*king_map & square_bb(k))) {
                const Move short_castling =
                    king_side && !(*king_map & square_bb(make_square(5, r))) ? castling_to(make_square(6, r)) : Move{};
                const Move long_castling =
                    queen_side && !(*king_map & square_bb(make_square(3, r))) ? castling_to(make_square(2, r)) : Move{};
                for (int i = 0; i < paths; ++i) {
                    if (!short_castling.is_null()) list.push(short_castling);
                    if (!long_castling.is_null()) list.push(long_castling);
                }
            }
        }
    } else if (ksq != k && R.rex == Rex::Inclusive) {
        MoveList special;
        RuleGen(pos, Us, special).special_moves(theirs);
        for (const Move& m : special) {
            if (m.kind == MoveKind::Castling && m.extra == SQ_NONE &&
                !mars_king_attacked(all, m.to, castled_occupancy(occ, m)))
                list.push(m);
        }
    }
}

static bool anti_capture_safe(const Position& pos, const Move& m, Square ksq);

// Anti-Circe alone with plain effects and classic squares without adapters: the capturer's
// rebirth square is classic_table's for its walk (as promoted) and the capture square.
static bool anti_plain(const Position& pos) {
    const RuleSet& R = *pos.rules();
    return R.reborn == Reborn::Capturer && R.square == SquareRule::Classic && !R.clone && !R.chameleon &&
           !R.vertical_mirror && !R.frischauf && !R.mars && !R.antimars && plain_effects(pos) &&
           quiet_legal_if_orthodox_legal(pos);
}

// Under anti_plain rules: whether one of the units of ~c on `att` (those attacking k with
// occupancy occ) takes c's king on k: an attacker whose capture the rules allow (its rebirth
// square the king's square, unless Cheylan; its own square, or empty, or Relaxed rules; a king
// under Rex Exclusive is not reborn), as anticirce_square decides.
static bool anti_king_taken_by(const Position& pos, Color c, Square k, Bitboard occ, Bitboard att) {
    const RuleSet& R = *pos.rules();
    const Color them = ~c;
    const Color home = R.mirror ? c : them;
    while (att) {
        const Square a = pop_lsb(att);
        const Piece p = pos.piece_on(a);
        if (p.walk == KING && R.rex == Rex::Exclusive) return true;
        const bool promotes = p.walk == PAWN && last_rank(them, k);
        const int n = promotes ? pos.promotion_walk_count() : 1;
        for (int i = 0; i < n; ++i) {
            const Walk w = promotes ? pos.promotion_walks()[i] : p.walk;
            const Square r = classic_table().sq[home][w][k];
            if (r == k ? !R.cheylan : (r == a || !(occ & square_bb(r)) || R.occupied == Occupied::Relaxed)) return true;
        }
    }
    return false;
}

// anti_king_taken_by for every unit of ~c attacking k in a position with occupancy occ whose ~c
// units are pos's but the one on `gone`.
static bool anti_king_taken(const Position& pos, Color c, Square k, Bitboard occ, Square gone = SQ_NONE) {
    Bitboard att = pos.attackers_to(k, ~c, occ);
    if (gone != SQ_NONE) att &= ~square_bb(gone);
    return anti_king_taken_by(pos, c, k, occ, att);
}

// Legal moves of the side to move under anti_plain rules, in generate_rule_moves' order: per
// unit (by square) a pawn's non-captures then captures, a piece's captures then non-captures;
// then castling and en passant. A capture's capturer goes to its rebirth square (m.extra; the
// capture square itself, or SQ_NONE for no rebirth under Relaxed rules); legality from the
// orthodox check and pin state where that settles it, otherwise from anti_king_taken.
// With `first_only`, stops once a unit has a legal move (rules_has_legal_move).
template <Color Us>
static void anti_plain_legal(const Position& pos, MoveList& list, bool first_only = false) {
    constexpr Color Them = Color(Us ^ 1);
    const RuleSet& R = *pos.rules();
    const Square ksq = pos.king_square(Us);
    const Bitboard occ = pos.pieces(), theirs = pos.pieces(Them);
    const Bitboard checkers = pos.attackers_to(ksq, Them), pinned = pos.pinned(Us);
    const Color home = R.mirror ? Them : Us;
    // A quiet move from -> to (no capture).
    auto quiet_legal = [&](Square from, Square to) {
        if (from == ksq) {
            const Bitboard after = occ ^ square_bb(from);
            const Bitboard att = pos.attackers_to(to, Them, after);
            return !att || !anti_king_taken_by(pos, Us, to, after | square_bb(to), att);
        }
        if (!checkers && (!(pinned & square_bb(from)) || aligned(ksq, from, to))) return true;
        return !anti_king_taken(pos, Us, ksq, (occ ^ square_bb(from)) | square_bb(to));
    };
    // A capture m (capturer ending on m.extra, or m.to without rebirth).
    auto capture_legal = [&](const Move& m) {
        if (anti_capture_safe(pos, m, ksq)) return true;
        const Square cap = capture_square(m, Us);
        const Square final_sq = m.extra == SQ_NONE ? m.to : m.extra;
        const Bitboard after = (occ & ~square_bb(m.from) & ~square_bb(m.to) & ~square_bb(cap)) | square_bb(final_sq);
        return !anti_king_taken(pos, Us, m.from == ksq ? final_sq : ksq, after, cap);
    };
    auto add_quiet = [&](Square from, Square to, bool promo) {
        if (!quiet_legal(from, to)) return;
        Move m;
        m.from = from;
        m.to = to;
        if (!promo) {
            list.push(m);
            return;
        }
        m.kind = MoveKind::Promotion;
        for (int i = 0; i < pos.promotion_walk_count(); ++i) {
            m.promotion = pos.promotion_walks()[i];
            list.push(m);
        }
    };
    // The capture from -> to by `mover` (as promoted to walk w), when its rebirth is allowed.
    auto add_capture = [&](Move m, Piece mover, Walk w) {
        if (mover.walk == KING && R.rex == Rex::Exclusive) {
            m.extra = SQ_NONE;
        } else {
            const Square r = classic_table().sq[home][w][m.to];
            if (r == m.to) {
                if (R.cheylan) return;
                m.extra = r;
            } else if (r == m.from || !(occ & square_bb(r))) {
                m.extra = r;
            } else if (R.occupied == Occupied::Relaxed) {
                m.extra = SQ_NONE;
            } else {
                return;
            }
        }
        if (capture_legal(m)) list.push(m);
    };
    auto add_captures = [&](Square from, Bitboard targets, bool promo) {
        const Piece mover = pos.piece_on(from);
        for (Bitboard t = targets; t;) {
            Move m;
            m.from = from;
            m.to = pop_lsb(t);
            if (!promo) {
                add_capture(m, mover, mover.walk);
                continue;
            }
            m.kind = MoveKind::Promotion;
            for (int i = 0; i < pos.promotion_walk_count(); ++i) {
                m.promotion = pos.promotion_walks()[i];
                add_capture(m, mover, m.promotion);
            }
        }
    };
    constexpr int up = Us == WHITE ? 8 : -8;
    for (Bitboard b = pos.pieces(Us); b;) {
        const Square q = pop_lsb(b);
        const Walk w = pos.piece_on(q).walk;
        if (w == PAWN) {
            const int rr = relative_rank(Us, rank_of(q));
            if (rr == 7 || rr == 0) continue;
            const Square one = Square(q + up);
            if (!(occ & square_bb(one))) {
                add_quiet(q, one, rr == 6);
                const Square two = Square(one + up);
                if (rr == 1 && !(occ & square_bb(two))) add_quiet(q, two, false);
            }
            add_captures(q, pawn_attacks(Us, q) & theirs, rr == 6);
            if (first_only && !list.empty()) return;
            continue;
        }
        const Bitboard t = walk_targets(w, q, occ);
        add_captures(q, t & theirs, false);
        for (Bitboard n = t & ~occ; n;) add_quiet(q, pop_lsb(n), false);
        if (first_only && !list.empty()) return;
    }
    MoveList special;
    RuleGen(pos, Us, special).special_moves(theirs);
    for (const Move& m : special) {
        if (m.kind == MoveKind::EnPassant) {
            if (capture_legal(m)) list.push(m);
            continue;
        }
        const Bitboard after = castled_occupancy(occ, m);
        if (!pos.attackers_to(m.to, Them, after) || !anti_king_taken(pos, Us, m.to, after)) list.push(m);
    }
}

// Ultra-Circe: whether the chain of removals and rebirths that capture m starts reaches
// square k (a king's square) before ending or hitting another king.
static bool ultra_chain_reaches(const Position& pos, const Move& m, Square k) {
    std::array<Piece, SQUARE_NB> b;
    for (int s = 0; s < SQUARE_NB; ++s) b[s] = pos.piece_on(Square(s));
    if (m.rebirth == SQ_NONE) return false;
    const Square cap = m.kind == MoveKind::EnPassant ? Square(m.to + (m.to > m.from ? -8 : 8)) : m.to;
    Piece placing = b[cap];
    placing.walk = m.rebirth_walk != NO_WALK ? m.rebirth_walk : placing.walk;
    Piece mover = b[m.from];
    if (m.kind == MoveKind::Promotion) mover.walk = m.promotion;
    b[cap] = Piece{};
    b[m.from] = Piece{};
    b[m.to] = mover;
    Square s = m.rebirth;
    for (int guard = 0; guard < 64; ++guard) {
        const Piece occupant = b[s];
        if (occupant.empty()) return false;
        if (s == k) return true;
        if (occupant.walk == KING) return false;
        b[s] = placing;
        const Square next = classic_rebirth_square(occupant.walk, occupant.color, s);
        if (next == s) return false;
        placing = occupant;
        s = next;
    }
    return false;
}

// Whether the rebirth square of a captured unit depends on the capturer or a choice.
static bool capturer_dependent(const RuleSet& R) {
    switch (R.square) {
        case SquareRule::PWC:
        case SquareRule::Couscous:
        case SquareRule::Equipollents:
        case SquareRule::Super:
        case SquareRule::Cage:
        case SquareRule::TakeMake:
        case SquareRule::Parrain:
        case SquareRule::ContraParrain:
            return true;
        default:
            return R.clone;
    }
}

// The check rule computed directly for the common families; false in `decided` when the
// general test (generating the opponent's captures) must run.
static bool direct_king_capturable(const Position& pos, Color c, bool& decided) {
    const RuleSet& R = *pos.rules();
    const Square k = pos.king_square(c);
    const Color them = ~c;
    const Bitboard occ = pos.pieces();
    // April under Circe with kings reborn or Assassin rebirths: the direct tests below do not
    // know which walks are reborn; the general test does.
    decided =
        !(R.april && R.reborn == Reborn::Captured && (R.rex == Rex::Inclusive || R.occupied == Occupied::Assassin));
    if (!decided) return false;
    if (R.mars && !R.antimars && R.reborn == Reborn::None) {
        // As mars_king_attacked(mars_attackers(pos, c), k, occ), unit by unit; with orthodox
        // walks a unit whose capture square does not see k on an empty board is passed over.
        const bool orthodox_walks = !pos.has_fairy();
        const Bitboard rook_lines = rook_attacks(k, 0), bishop_lines = bishop_attacks(k, 0);
        for (Bitboard b = pos.pieces(them); b;) {
            const Square q = pop_lsb(b);
            const Piece p = pos.piece_on(q);
            const Square home = mars_home(R, p, q);
            if (home == SQ_NONE) continue;
            if (orthodox_walks) {
                Bitboard from;
                switch (p.walk) {
                    case PAWN:
                        from = pawn_attacks(c, k);
                        break;
                    case KNIGHT:
                        from = knight_attacks(k);
                        break;
                    case KING:
                        from = king_attacks(k);
                        break;
                    case BISHOP:
                        from = bishop_lines;
                        break;
                    case ROOK:
                        from = rook_lines;
                        break;
                    default:
                        from = rook_lines | bishop_lines;
                        break;
                }
                if (!(from & square_bb(home))) continue;
            }
            if (home == q) {
                if (unit_attacks(p.walk, them, q, k, occ)) return true;
            } else if (home != SQ_NONE && !(occ & square_bb(home)) &&
                       unit_attacks(p.walk, them, home, k, (occ ^ square_bb(q)) | square_bb(home))) {
                return true;
            }
        }
        return false;
    }
    if (R.mars || R.antimars || R.square == SquareRule::Super || R.square == SquareRule::Cage ||
        R.square == SquareRule::TakeMake || parrain_like(R)) {
        // A chosen rebirth square (Super, Cage, Take&Make) only restricts captures: with
        // orthodox walks and captures made from where the capturer stands, a king no unit
        // attacks cannot be taken (unless a rebirth lands on it: Assassin, Ultra).
        decided = !pos.has_fairy() && !R.mars && !R.antimars && !parrain_like(R) && pos.buried_count() == 0 &&
                  R.occupied != Occupied::Assassin && R.occupied != Occupied::Ultra &&
                  (R.reborn != Reborn::Both ||
                   (R.both_capturer.occupied != Occupied::Assassin && R.both_capturer.occupied != Occupied::Ultra)) &&
                  !pos.attackers_to(k, them);
        return false;
    }
    if (R.reborn == Reborn::Capturer) {
        // Anti-Circe: an attacker checks if its capture of the king would be allowed.
        for (Bitboard att = pos.attackers_to(k, them); att;) {
            const Square a = pop_lsb(att);
            Piece p = pos.piece_on(a);
            const bool promotes = p.walk == PAWN && last_rank(them, k);
            const int n = promotes ? pos.promotion_walk_count() : 1;
            for (int i = 0; i < n; ++i) {
                if (promotes) {
                    p.walk = pos.promotion_walks()[i];
                    p.flags |= PF_PROMOTED;
                }
                Square r;
                Walk w;
                if (anticirce_square(pos, R, p, a, k, r, w)) return true;
            }
        }
        if (R.occupied == Occupied::Assassin) {
            // Anti-Circe Assassin: a capture anywhere whose capturer is reborn on the king.
            for (Bitboard b = pos.pieces(c) & ~square_bb(k); b;) {
                const Square s = pop_lsb(b);
                for (Bitboard att = pos.attackers_to(s, them); att;) {
                    const Square a = pop_lsb(att);
                    Square r;
                    Walk w;
                    if (anticirce_square(pos, R, pos.piece_on(a), a, s, r, w) && r == k) return true;
                }
            }
        }
        return false;
    }
    if (R.reborn != Reborn::Captured || capturer_dependent(R) || R.occupied == Occupied::Ultra) {
        decided = false;
        return false;
    }
    if (R.rex == Rex::Inclusive) {
        // The king is in check when a capture of it leaves it without rebirth.
        if (R.occupied != Occupied::Relaxed) {
            decided = false;
            return false;
        }
        for (Bitboard att = pos.attackers_to(k, them); att;) {
            const Square a = pop_lsb(att);
            CaptureFacts f;
            f.unit = pos.piece_on(k);
            f.capture = k;
            f.from = a;
            f.to = k;
            f.capturer = pos.piece_on(a);
            f.origin = pos.origin(k);
            const Square r = rebirth_square(R, f, reborn_walk(R, f));
            if (r == SQ_NONE || r == k || (r != a && !pos.empty(r))) return true;
        }
        return false;
    }
    if (pos.attackers_to(k, them)) return true;
    if (R.occupied == Occupied::Assassin) {
        // Assassin: a capture of one of c's units whose rebirth lands on the king.
        for (Bitboard b = may_be_reborn_on(pos, R, c, k); b;) {
            const Square s = pop_lsb(b);
            if (rebirth_square_if_taken(R, pos.piece_on(s), s, pos.origin(s)) == k && pos.attackers_to(s, them))
                return true;
        }
    }
    return false;
}

static bool king_capturable_by_moves(const Position& pos, Color c, Square k, const RuleSet& R);

bool king_capturable(const Position& pos, Color c) {
    const Square k = pos.king_square(c);
    if (k == SQ_NONE) return false;
    const RuleSet& R = *pos.rules();
    bool decided;
    const bool direct = direct_king_capturable(pos, c, decided);
    if (decided) return direct;
    // Cage rebirths nest this question (a capture is allowed only with a cage, a cage only
    // where the reborn unit's quiet moves are legal): each answer is kept per thread, for the
    // rule set and promotion walks it was found with (the position's exact key has neither).
    const bool memo =
        R.square == SquareRule::Cage || (R.reborn == Reborn::Both && R.both_capturer.square == SquareRule::Cage);
    thread_local ExactSet cage_memo;
    thread_local std::string key;
    thread_local RuleSet memo_rules;
    thread_local std::array<Walk, WALK_NB> memo_promotions{};
    thread_local int memo_promotion_count = -1;
    if (memo) {
        if (!(memo_rules == R) || memo_promotion_count != pos.promotion_walk_count() ||
            memo_promotions != pos.promotion_walks()) {
            cage_memo.clear();
            memo_rules = R;
            memo_promotions = pos.promotion_walks();
            memo_promotion_count = pos.promotion_walk_count();
        }
        pos.exact_key(key);
        key += static_cast<char>(c);
        if (const int known = cage_memo.find(key); known >= 0) return known != 0;
        const bool result = king_capturable_by_moves(pos, c, k, R);
        pos.exact_key(key);  // the nested questions reused this thread's buffer
        key += static_cast<char>(c);
        if (cage_memo.size() > (size_t(1) << 20)) cage_memo.clear();
        cage_memo.insert(key, result ? 1 : 0);
        return result;
    }
    return king_capturable_by_moves(pos, c, k, R);
}

// king_capturable by generating the captures of the king (and under Assassin and Ultra the
// captures whose rebirth lands on it).
static bool king_capturable_by_moves(const Position& pos, Color c, Square k, const RuleSet& R) {
    MoveList caps;
    generate_rule_moves(pos, ~c, square_bb(k), false, caps);
    for (const Move& m : caps) {
        if (m.to != k) continue;
        if (R.rex == Rex::Inclusive && R.reborn == Reborn::Captured && m.rebirth != SQ_NONE) continue;
        return true;
    }
    if (R.occupied == Occupied::Assassin || R.occupied == Occupied::Ultra) {
        caps.clear();
        generate_rule_moves(pos, ~c, pos.pieces(c) & ~square_bb(k), false, caps);
        for (const Move& m : caps)
            if (m.rebirth == k || (R.occupied == Occupied::Ultra && ultra_chain_reaches(pos, m, k))) return true;
    }
    return false;
}

bool quiet_moves_orthodox(const Position& pos) {
    const RuleSet& R = *pos.rules();
    // Turncoats: a reborn unit joins the capturer's side and may give check itself, which the
    // check foresight (checks_foreseeable) built on this does not see.
    return !pos.has_fairy() && R.reborn == Reborn::Captured && R.rex == Rex::Exclusive && !R.mars && !R.antimars &&
           !R.turncoat && !delayed_rebirth(R) && !first_rank_pawns_move(R) && R.occupied != Occupied::Assassin &&
           R.occupied != Occupied::Ultra && pos.buried_count() == 0;
}

static bool append_legal(const Position& pos, const MoveList& pseudo, MoveList* list, bool by_make = false);

// Whether a quiet move (no capture, no castling) only moves its unit and a king can be taken
// only by a unit attacking it in the orthodox sense: no fairy walk, no Mars or Anti-Mars
// departure, no Parrain rebirth on the next move, no buried units (Volcanic, Parachute), no
// rebirth onto a king (Assassin, Ultra), no first-rank pawn moves (Cage, Parrain). Then an
// orthodox-legal quiet move leaves the king untakeable, hence legal (Anti-Circe, Circe Rex
// Inclusive, Circe with other squares or reborn walks, WaitCapture, whose rebirths come only
// with captures...).
static bool quiet_legal_if_orthodox_legal(const Position& pos) {
    const RuleSet& R = *pos.rules();
    return !pos.has_fairy() && !R.mars && !R.antimars && !parrain_like(R) && !first_rank_pawns_move(R) &&
           (R.occupied == Occupied::Relaxed || R.occupied == Occupied::Strict) &&
           (R.reborn != Reborn::Both || R.both_capturer.occupied == Occupied::Relaxed ||
            R.both_capturer.occupied == Occupied::Strict) &&
           pos.buried_count() == 0;
}

// Whether a unit of walk w and colour c on s attacks t with occupancy occ (orthodox walks).
static bool unit_attacks(Walk w, Color c, Square s, Square t, Bitboard occ) {
    switch (w) {
        case PAWN:
            return relative_rank(c, rank_of(s)) != 0 && (pawn_attacks(c, s) & square_bb(t));
        case KNIGHT:
            return knight_attacks(s) & square_bb(t);
        case KING:
            return king_attacks(s) & square_bb(t);
        case BISHOP:
            return bishop_attacks(s, occ) & square_bb(t);
        case ROOK:
            return rook_attacks(s, occ) & square_bb(t);
        case QUEEN:
            return queen_attacks(s, occ) & square_bb(t);
        default:
            return walk_attacks_square(w, s, t, occ);
    }
}

// Legality of a capture whose only effects are the capture itself and the rebirth of the
// captured unit on m.rebirth (Relaxed/Strict Circe types, orthodox check): the mover's king
// must not be attacked in the resulting position, computed without playing the move.
static bool simple_capture_legal(const Position& pos, const Move& m) {
    const Color us = pos.side_to_move(), them = ~us;
    const Square cap = capture_square(m, us);
    const Piece mover = pos.piece_on(m.from);
    const Square k = mover.walk == KING ? m.to : pos.king_square(us);
    if (k == SQ_NONE) return true;
    Bitboard occ = (pos.pieces() ^ square_bb(m.from) ^ square_bb(cap)) | square_bb(m.to);
    if (m.rebirth != SQ_NONE) occ |= square_bb(m.rebirth);
    if (pos.attackers_to(k, them, occ) & ~square_bb(cap)) return false;
    return m.rebirth == SQ_NONE || !unit_attacks(m.rebirth_walk, them, m.rebirth, k, occ);
}

// Whether the captures of pos can take the classic-Circe fast path: the captured unit is
// reborn on its §3 square (Frisch-auf allowed), Relaxed or Strict, no extra effect.
static bool classic_captures(const RuleSet& R) {
    return R.square == SquareRule::Classic && !R.mirror && !R.vertical_mirror && !R.clone && !R.chameleon &&
           (R.occupied == Occupied::Relaxed || R.occupied == Occupied::Strict) && !R.alsatian && !R.atom &&
           !R.kamikaze && !R.hydra && !exotic_rebirth(R);
}

// Calls emit(from, to, kind, promotion walk) for every pseudo-legal capture of the side to
// move with orthodox walks: the pieces' captures (by square), then the pawns' (each promotion
// walk from the seventh rank; en passant).
template <class Emit>
static void for_each_capture(const Position& pos, Emit&& emit) {
    const Color us = pos.side_to_move();
    const Bitboard occ = pos.pieces(), theirs = pos.pieces(~us);
    for (Bitboard b = pos.pieces(us) & ~pos.pieces(PAWN); b;) {
        const Square from = pop_lsb(b);
        for (Bitboard att = walk_targets(pos.piece_on(from).walk, from, occ) & theirs; att;)
            emit(from, pop_lsb(att), MoveKind::Normal, NO_WALK);
    }
    const Bitboard first = rank_bb(us == WHITE ? 0 : 7), seventh = rank_bb(us == WHITE ? 6 : 1);
    for (Bitboard b = pos.pieces(us, PAWN) & ~first; b;) {
        const Square from = pop_lsb(b);
        for (Bitboard att = pawn_attacks(us, from) & theirs; att;) {
            const Square to = pop_lsb(att);
            if (seventh & square_bb(from))
                for (int i = 0; i < pos.promotion_walk_count(); ++i)
                    emit(from, to, MoveKind::Promotion, pos.promotion_walks()[i]);
            else
                emit(from, to, MoveKind::Normal, NO_WALK);
        }
        if (pos.ep_square() != SQ_NONE && (pawn_attacks(us, from) & square_bb(pos.ep_square())))
            emit(from, pos.ep_square(), MoveKind::EnPassant, NO_WALK);
    }
}

// Legal captures under classic-square Circe, generated on bitboards: the rebirth square
// comes from a table, legality from the orthodox pin/check state plus the reborn unit.
static void classic_circe_captures(const Position& pos, MoveList& list, const KingSafety& safety) {
    const RuleSet& R = *pos.rules();
    const ClassicTable& table = classic_table();
    const Color us = pos.side_to_move(), them = ~us;
    const Bitboard occ = pos.pieces();
    const Square ksq = pos.king_square(us);
    const Bitboard checkers = safety.checkers, pinned = safety.pinned;
    // One capture from `from` to `to` (promotion walk `promo`, en passant when ep).
    auto emit = [&](Square from, Square to, MoveKind kind, Walk promo) {
        const Square cap = kind == MoveKind::EnPassant ? Square(us == WHITE ? to - 8 : to + 8) : to;
        const Piece captured = pos.piece_on(cap);
        Move m;
        m.from = from;
        m.to = to;
        m.kind = kind;
        m.promotion = promo;
        if (captured.walk != KING) {
            const bool promoted = R.frischauf && (captured.flags & PF_PROMOTED);
            Square r = promoted ? make_square(file_of(cap), them == WHITE ? 7 : 0) : table.sq[them][captured.walk][cap];
            const bool empty = r != to && (r == from || r == cap || pos.empty(r));
            if (!empty) {
                if (R.occupied == Occupied::Strict) return;
                r = SQ_NONE;
            }
            m.rebirth = r;
            m.rebirth_walk = r == SQ_NONE ? NO_WALK : captured.walk;
        }
        bool legal;
        if (ksq == SQ_NONE)
            legal = true;
        else if (checkers || from == ksq || kind == MoveKind::EnPassant ||
                 ((pinned & square_bb(from)) && !aligned(ksq, from, to)))
            legal = simple_capture_legal(pos, m);
        else
            legal =
                m.rebirth == SQ_NONE || !unit_attacks(m.rebirth_walk, them, m.rebirth, ksq,
                                                      (occ ^ square_bb(from)) | square_bb(to) | square_bb(m.rebirth));
        if (legal) list.push(m);
    };
    for_each_capture(pos, emit);
}

bool assassin_plain(const Position& pos) {
    const RuleSet& R = *pos.rules();
    return R.reborn == Reborn::Captured && R.occupied == Occupied::Assassin && R.rex == Rex::Exclusive &&
           R.square == SquareRule::Classic && !R.mirror && !R.vertical_mirror && !R.clone && !R.chameleon &&
           !R.frischauf && !R.mars && !R.antimars && plain_effects(pos);
}

namespace {

// The check rule of Circe Assassin (as direct_king_capturable) in the position that a move of
// the side to move leaves: occupancy occ, the enemy units of pos but those on `gone` (taken or
// removed), plus `extra_unit` on `extra` (a reborn one; SQ_NONE: none), the mover's units
// `ours` (walks read from pos, but `moved_to` has `moved_walk`). The king on k is taken when
// an enemy unit attacks it or attacks one of the other units whose rebirth square is k.
struct AssassinAfter {
    const Position& pos;
    Color us;
    Bitboard occ, gone;
    Square extra;
    Walk extra_walk;
    Bitboard ours;
    Square moved_to;
    Walk moved_walk;

    bool attacked(Square s) const {
        if (pos.attackers_to(s, ~us, occ) & ~gone) return true;
        return extra != SQ_NONE && unit_attacks(extra_walk, ~us, extra, s, occ);
    }
    bool king_taken(Square k) const { return attacked(k) || target_taken(k); }

    // Whether an enemy unit attacks one of the units (the king's excepted) whose rebirth square
    // is k.
    bool target_taken(Square k) const {
        if (relative_rank(us, rank_of(k)) > 1) return false;  // no classic rebirth square of us
        const ClassicTable& table = classic_table();
        const Bitboard moved = moved_to == SQ_NONE ? 0 : square_bb(moved_to);
        for (Bitboard b = reborn_on_candidates(pos, us, k) & ours & ~moved & ~square_bb(k); b;) {
            const Square t = pop_lsb(b);
            if (table.sq[us][pos.piece_on(t).walk][t] == k && attacked(t)) return true;
        }
        return moved && (ours & moved) && moved_walk != KING && moved_to != k &&
               table.sq[us][moved_walk][moved_to] == k && attacked(moved_to);
    }

    // The units of pos (of colour c, kings included) whose walk has a classic rebirth square
    // that can be k: the walk whose home row square k is, or the pawns of k's file.
    static Bitboard reborn_on_candidates(const Position& pos, Color c, Square k) {
        const int rel = relative_rank(c, rank_of(k));
        if (rel == 1) return pos.pieces(c, PAWN) & file_bb(file_of(k));
        if (rel != 0) return 0;
        return pos.pieces(c, BACK_RANK_WALKS[file_of(k)]);
    }
};

}  // namespace

void filter_assassin_quiet(const Position& pos, MoveList& list, int begin) {
    const Color us = pos.side_to_move();
    const Square ksq = pos.king_square(us);
    const Bitboard occ = pos.pieces(), ours = pos.pieces(us);
    const ClassicTable& table = classic_table();
    // The units (king's excepted) reborn on the king's square when taken: they must stay
    // unattacked after any move of another unit.
    Bitboard targets = 0;
    for (Bitboard b = AssassinAfter::reborn_on_candidates(pos, us, ksq) & ~square_bb(ksq); b;) {
        const Square t = pop_lsb(b);
        if (pos.piece_on(t).walk != KING && table.sq[us][pos.piece_on(t).walk][t] == ksq) targets |= square_bb(t);
    }
    std::optional<bool> safe_now;
    const bool home_rows = relative_rank(us, rank_of(ksq)) <= 1;  // where our units are reborn
    int kept = begin;
    for (int i = begin; i < list.size(); ++i) {
        const Move m = list[i];
        bool ok;
        if (m.kind == MoveKind::Castling) {
            // Not in check, the passing square and the arrival safe (the orthodox generator
            // already excluded attacks on them; the rebirth targets remain).
            const Square rook_to = castling_rook(m).to, pass = rook_to;
            if (!safe_now) {
                AssassinAfter now{pos, us, occ, 0, SQ_NONE, NO_WALK, ours, SQ_NONE, NO_WALK};
                safe_now = !now.king_taken(ksq);
            }
            const Bitboard occ_pass = (occ ^ square_bb(ksq)) | square_bb(pass);
            AssassinAfter passing{
                pos, us, occ_pass, 0, SQ_NONE, NO_WALK, (ours ^ square_bb(ksq)) | square_bb(pass), SQ_NONE, NO_WALK};
            AssassinAfter after{
                pos, us, castled_occupancy(occ, m), 0, SQ_NONE, NO_WALK, castled_occupancy(ours, m), rook_to, ROOK};
            ok = *safe_now && !passing.king_taken(pass) && !after.king_taken(m.to);
        } else if (m.from == ksq) {
            const Bitboard o = (occ ^ square_bb(m.from)) | square_bb(m.to);
            AssassinAfter after{pos,     us,     o, 0, SQ_NONE, NO_WALK, (ours ^ square_bb(m.from)) | square_bb(m.to),
                                SQ_NONE, NO_WALK};
            ok = !after.target_taken(m.to);  // the orthodox generator left m.to unattacked
        } else if (!targets && !home_rows) {
            ok = true;  // no unit is reborn on the king's square, before the move or after
        } else {
            const Walk w = m.kind == MoveKind::Promotion ? m.promotion : pos.piece_on(m.from).walk;
            const Bitboard t = (targets & ~square_bb(m.from)) | (table.sq[us][w][m.to] == ksq ? square_bb(m.to) : 0);
            ok = true;
            if (t) {
                const Bitboard o = (occ ^ square_bb(m.from)) | square_bb(m.to);
                AssassinAfter after{pos, us, o, 0, SQ_NONE, NO_WALK, 0, SQ_NONE, NO_WALK};
                for (Bitboard b = t; ok && b;) ok = !after.attacked(pop_lsb(b));
            }
        }
        if (ok) list[kept++] = m;
    }
    list.truncate(kept);
}

void append_assassin_captures(const Position& pos, MoveList& list, const KingSafety& safety) {
    const ClassicTable& table = classic_table();
    const Color us = pos.side_to_move(), them = ~us;
    const Bitboard occ = pos.pieces(), ours = pos.pieces(us);
    const Square ksq = pos.king_square(us);
    // The units (king's excepted) reborn on the king's square when taken.
    Bitboard targets = 0;
    for (Bitboard b = AssassinAfter::reborn_on_candidates(pos, us, ksq) & ~square_bb(ksq); b;) {
        const Square t = pop_lsb(b);
        if (pos.piece_on(t).walk != KING && table.sq[us][pos.piece_on(t).walk][t] == ksq) targets |= square_bb(t);
    }
    auto emit = [&](Square from, Square to, MoveKind kind, Walk promo) {
        const Square cap = kind == MoveKind::EnPassant ? Square(us == WHITE ? to - 8 : to + 8) : to;
        const Piece captured = pos.piece_on(cap);
        const Piece mover = pos.piece_on(from);
        Move m;
        m.from = from;
        m.to = to;
        m.kind = kind;
        m.promotion = promo;
        Bitboard gone = square_bb(cap);
        Bitboard still_ours = (ours ^ square_bb(from)) | square_bb(to);
        Square r = SQ_NONE;
        if (captured.walk != KING) {
            r = table.sq[them][captured.walk][cap];
            // The unit on r after the capture is removed; a king there forbids the move.
            const Piece occupant = r == to ? mover : (r == from || r == cap) ? Piece{} : pos.piece_on(r);
            if (occupant.walk == KING) return;
            gone |= square_bb(r);
            still_ours &= ~square_bb(r);
            m.rebirth = r;
            m.rebirth_walk = captured.walk;
        }
        Bitboard o = (occ & ~square_bb(from) & ~square_bb(cap)) | square_bb(to);
        if (r != SQ_NONE) o |= square_bb(r);
        const Walk moved_walk = kind == MoveKind::Promotion ? promo : mover.walk;
        AssassinAfter after{pos, us, o, gone, r, captured.walk, still_ours, to, moved_walk};
        // Not in check, a capture by another unit that keeps its pin line and loses no unit of
        // ours: the only new attack on the king can come from the reborn unit, and the only
        // new target is the capturer.
        const bool simple = !safety.checkers && from != ksq && kind != MoveKind::EnPassant &&
                            (!(safety.pinned & square_bb(from)) || aligned(ksq, from, to)) &&
                            (still_ours & square_bb(to)) && !(ours & gone & ~square_bb(from));
        bool legal;
        if (simple) {
            legal = r == SQ_NONE || !unit_attacks(captured.walk, them, r, ksq, o);
            for (Bitboard b = targets & still_ours & ~square_bb(from); legal && b;) legal = !after.attacked(pop_lsb(b));
            if (legal && moved_walk != KING && table.sq[us][moved_walk][to] == ksq) legal = !after.attacked(to);
        } else {
            legal = !after.king_taken(from == ksq ? to : ksq);
        }
        if (legal) list.push(m);
    };
    for_each_capture(pos, emit);
}

void append_rules_captures(const Position& pos, MoveList& list, const KingSafety& safety) {
    if (classic_captures(*pos.rules())) {
        classic_circe_captures(pos, list, safety);
        return;
    }
    MoveList caps;
    const Color us = pos.side_to_move();
    RuleGen gen(pos, us, caps);
    gen.captures_only();
    const RuleSet& R = *pos.rules();
    if (!R.alsatian && !R.atom && !R.kamikaze && !R.hydra &&
        (R.occupied == Occupied::Relaxed || R.occupied == Occupied::Strict)) {
        // A capture that is legal in orthodox chess (king not in check, mover not pinned off
        // its line) stays legal unless the reborn unit attacks the king; the others get the
        // full test.
        const Color them = ~us;
        const Square ksq = pos.king_square(us);
        const Bitboard checkers = safety.checkers, pinned = safety.pinned;
        for (const Move& m : caps) {
            bool legal;
            if (ksq == SQ_NONE)
                legal = true;
            else if (checkers || m.from == ksq || m.kind == MoveKind::EnPassant ||
                     ((pinned & square_bb(m.from)) && !aligned(ksq, m.from, m.to)))
                legal = simple_capture_legal(pos, m);
            else
                legal = m.rebirth == SQ_NONE ||
                        !unit_attacks(m.rebirth_walk, them, m.rebirth, ksq,
                                      (pos.pieces() ^ square_bb(m.from)) | square_bb(m.to) | square_bb(m.rebirth));
            if (legal) list.push(m);
        }
        return;
    }
    append_legal(pos, caps, &list);
}

// Anti-Circe capture m (the capturer goes to m.extra, or stays on m.to when m.extra is
// SQ_NONE): whether no enemy unit attacks the mover's king (on ksq, or where the capturing king
// goes) afterwards.
static bool anti_capture_safe(const Position& pos, const Move& m, Square ksq) {
    const Color us = pos.side_to_move();
    const Square cap = capture_square(m, us);
    const Square final_sq = m.extra == SQ_NONE ? m.to : m.extra;
    const Bitboard occ = (pos.pieces() & ~square_bb(m.from) & ~square_bb(m.to) & ~square_bb(cap)) | square_bb(final_sq);
    const Square k = m.from == ksq ? final_sq : ksq;
    return !(pos.attackers_to(k, ~us, occ) & ~square_bb(cap));
}

// Appends to *list the moves of `pseudo` that are legal in pos (each played on a scratch
// copy: the rules allow it, the mover's king is not capturable, and under Alsatian Circe a
// capture leaves an orthodox-legal position). With a null list, stops at the first legal
// move. Returns whether a legal move was found.
static bool append_legal(const Position& pos, const MoveList& pseudo, MoveList* list, bool by_make) {
    const Color us = pos.side_to_move();
    const RuleSet& R = *pos.rules();
    // by_make (the reference): no shortcut, every move played and the check rule tested.
    // Where a quiet move does nothing but move and a king is taken only by a unit attacking
    // it, a quiet move legal in orthodox chess (pins, checks) is legal: no make-and-test.
    const Square ksq = pos.king_square(us);
    const bool plain = !by_make && ksq != SQ_NONE && quiet_legal_if_orthodox_legal(pos);
    const bool fast = plain && !pos.attackers_to(ksq, ~us);
    const Bitboard pinned = fast ? pos.pinned(us) : 0;
    // Anti-Circe alone (the capturer reborn, the captured unit gone, nothing else happening):
    // a capture after which no enemy unit attacks the king is legal.
    // (Not under Turncoats: the capturer comes back as an enemy unit.)
    const bool fast_captures =
        plain && R.reborn == Reborn::Capturer && !R.alsatian && !R.atom && !R.kamikaze && !R.hydra && !R.turncoat;
    // Mars Circe alone: a quiet move changes only which squares are occupied (and the king's
    // square when the king moves), which mars_king_attacked takes as given; a capture (from the
    // rebirth square, m.extra, ending on the captured unit's square) also removes that unit.
    const bool simple = !by_make && plain_effects(pos);  // shared by the Mars and Assassin shortcuts
    const bool mars_quiet = simple && mars_plain(pos);
    std::optional<MarsAttackers> mars, mars_near;  // all; those able to reach the king's square
    std::optional<Bitboard> mars_map;              // mars_attack_map without the king
    // Circe Assassin (Rex Exclusive, single rebirth square): the king is taken by an attack on
    // it or by a capture of one of its units reborn on its square. A quiet move of another unit
    // changes only occupancy and that unit's square: the king must stay unattacked, and so must
    // the units reborn on its square when taken (`assassin_targets`, found once) and the mover
    // if it is one of them on its new square.
    const bool assassin_quiet = simple && R.reborn == Reborn::Captured && R.occupied == Occupied::Assassin &&
                                R.rex == Rex::Exclusive && !capturer_dependent(R) && !R.mars && !R.antimars;
    // Found at the first quiet move: whether the king is safe now (otherwise make-and-test),
    // and the units reborn on its square when taken.
    std::optional<bool> assassin_safe;
    Bitboard assassin_targets = 0, assassin_candidates = 0;
    auto assassin_ready = [&] {
        if (!assassin_safe) {
            assassin_safe = !king_capturable(pos, us);
            assassin_candidates = may_be_reborn_on(pos, R, us, ksq);
            for (Bitboard b = assassin_candidates; *assassin_safe && b;) {
                const Square t = pop_lsb(b);
                if (rebirth_square_if_taken(R, pos.piece_on(t), t, pos.origin(t)) == ksq)
                    assassin_targets |= square_bb(t);
            }
        }
        return *assassin_safe;
    };
    // Castling (king from m.from, rook from its corner, nothing else moving): under Mars Circe
    // alone exactly whether the king is safe on m.to; otherwise true only when no enemy unit
    // attacks m.to in the orthodox sense (then, in `fast` families, the king is safe).
    auto castling_safe = [&](const Move& m) {
        const Bitboard occ = castled_occupancy(pos.pieces(), m);
        if (mars_quiet) {
            if (!mars) {
                mars = mars_attackers(pos, us);
                mars_near = mars_attackers_of(*mars, ksq);
            }
            return !mars_king_attacked(*mars, m.to, occ);
        }
        return !pos.attackers_to(m.to, ~us, occ);
    };
    std::optional<Position> scratch;
    UndoInfo u;
    bool any = false;
    for (const Move& m : pseudo) {
        bool ok;
        if (assassin_quiet && m.from != ksq && (m.kind == MoveKind::Normal || m.kind == MoveKind::Promotion) &&
            m.extra == SQ_NONE && pos.empty(m.to) && assassin_ready()) {
            const Bitboard occ = (pos.pieces() ^ square_bb(m.from)) | square_bb(m.to);
            ok = !pos.attackers_to(ksq, ~us, occ);
            for (Bitboard b = assassin_targets & ~square_bb(m.from); ok && b;)
                ok = !pos.attackers_to(pop_lsb(b), ~us, occ);
            // A unit outside may_be_reborn_on's answer stays out of it unless it promotes (the
            // answer depends on the walk, and for pawns on the file, which a quiet move keeps).
            if (ok && (m.kind == MoveKind::Promotion || (assassin_candidates & square_bb(m.from)))) {
                Piece moved = pos.piece_on(m.from);
                if (m.kind == MoveKind::Promotion) {
                    moved.walk = m.promotion;
                    moved.flags |= PF_PROMOTED;
                }
                ok = !(rebirth_square_if_taken(R, moved, m.to, pos.origin(m.from)) == ksq &&
                       pos.attackers_to(m.to, ~us, occ));
            }
        } else if (mars_quiet && (m.kind == MoveKind::Normal || m.kind == MoveKind::Promotion) &&
                   (pos.empty(m.to) || pos.piece_on(m.to).color != us)) {
            if (!mars) {
                mars = mars_attackers(pos, us);
                mars_near = mars_attackers_of(*mars, ksq);
            }
            if (m.from == ksq && pos.empty(m.to)) {
                // A king step to an empty square: the attack map without the king.
                if (!mars_map) mars_map = mars_attack_map(*mars, pos.pieces() ^ square_bb(ksq));
                ok = !(*mars_map & square_bb(m.to));
            } else {
                ok = !mars_king_attacked(m.from == ksq ? *mars : *mars_near, m.from == ksq ? m.to : ksq,
                                         (pos.pieces() ^ square_bb(m.from)) | square_bb(m.to),
                                         pos.empty(m.to) ? SQ_NONE : m.to);
            }
        } else if (m.kind == MoveKind::Castling && m.extra == SQ_NONE && (mars_quiet || fast) && castling_safe(m)) {
            ok = true;
        } else if (mars_quiet && m.kind == MoveKind::Castling && m.extra == SQ_NONE) {
            ok = false;  // castling_safe is exact under Mars Circe alone
        } else if (fast && (m.kind == MoveKind::Normal || m.kind == MoveKind::Promotion) && pos.empty(m.to) &&
                   m.extra == SQ_NONE &&
                   (m.from == ksq ? !pos.attackers_to(m.to, ~us, pos.pieces() ^ square_bb(m.from))
                                  : !(pinned & square_bb(m.from)) || aligned(ksq, m.from, m.to))) {
            ok = true;
        } else if (fast_captures &&
                   (m.kind == MoveKind::Normal || m.kind == MoveKind::Promotion || m.kind == MoveKind::EnPassant) &&
                   (m.kind == MoveKind::EnPassant || !pos.empty(m.to)) && anti_capture_safe(pos, m, ksq)) {
            ok = true;
        } else {
            if (!scratch) scratch.emplace(pos);
            if (!scratch->do_rules_move(m, u)) continue;
            ok = !scratch->in_check(us);
            if (ok && R.alsatian && u.capture_square != SQ_NONE)
                ok = !analyze_orthodox_legality(scratch->to_setup().board, scratch->side_to_move()).illegal;
            scratch->undo_move(m, u);
        }
        if (!ok) continue;
        any = true;
        if (!list) return true;
        list->push(m);
    }
    return any;
}

void generate_rules_legal(const Position& pos, MoveList& list) {
    const Color us = pos.side_to_move();
    if (mars_plain(pos)) {
        list.clear();
        us == WHITE ? mars_plain_legal<WHITE>(pos, list) : mars_plain_legal<BLACK>(pos, list);
        return;
    }
    if (anti_plain(pos)) {
        list.clear();
        us == WHITE ? anti_plain_legal<WHITE>(pos, list) : anti_plain_legal<BLACK>(pos, list);
        return;
    }
    MoveList pseudo;
    generate_rule_moves(pos, us, pos.pieces(~us), true, pseudo);
    list.clear();
    append_legal(pos, pseudo, &list);
}

void generate_rules_legal_by_make(const Position& pos, MoveList& list) {
    MoveList pseudo;
    const Color us = pos.side_to_move();
    generate_rule_moves(pos, us, pos.pieces(~us), true, pseudo, true);
    list.clear();
    append_legal(pos, pseudo, &list, true);
}

bool rules_has_legal_move(const Position& pos) {
    if (quiet_moves_orthodox(pos)) {
        MoveList list;
        generate_legal(pos, list);
        return !list.empty();
    }
    // The plain Mars and Anti-Circe generators, stopping at the first unit with a legal move.
    if (mars_plain(pos)) {
        MoveList list;
        pos.side_to_move() == WHITE ? mars_plain_legal<WHITE>(pos, list, true)
                                    : mars_plain_legal<BLACK>(pos, list, true);
        return !list.empty();
    }
    if (anti_plain(pos)) {
        MoveList list;
        pos.side_to_move() == WHITE ? anti_plain_legal<WHITE>(pos, list, true)
                                    : anti_plain_legal<BLACK>(pos, list, true);
        return !list.empty();
    }
    MoveList pseudo;
    const Color us = pos.side_to_move();
    generate_rule_moves(pos, us, pos.pieces(~us), true, pseudo);
    return append_legal(pos, pseudo, nullptr);
}

}  // namespace rebirth
