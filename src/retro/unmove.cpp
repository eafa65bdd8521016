#include "rebirth/unmove.h"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <stdexcept>
#include <unordered_set>

#include "core/walk_attacks.h"
#include "rebirth/bitboard.h"
#include "rebirth/movegen.h"
#include "rebirth/position.h"
#include "rules/rebirth_square.h"

namespace rebirth {

namespace {

constexpr Walk kUncapturable[] = {QUEEN, ROOK, BISHOP, KNIGHT, PAWN};

// A hash of every field of an UnMove (equal ones hash alike; the set compares them whole).
struct UnMoveHash {
    std::size_t operator()(const UnMove& u) const {
        const Move& m = u.move;
        std::uint64_t h = std::uint64_t(m.from) | std::uint64_t(m.to) << 8 | std::uint64_t(m.kind) << 16 |
                          std::uint64_t(m.promotion) << 24 | std::uint64_t(m.rebirth) << 32 |
                          std::uint64_t(m.rebirth_walk) << 40 | std::uint64_t(m.extra) << 48 |
                          std::uint64_t(m.spare) << 56;
        const auto unit = [](Piece p) {
            return std::uint64_t(p.walk) | std::uint64_t(p.color) << 8 | std::uint64_t(p.flags) << 9;
        };
        std::uint64_t g = std::uint64_t(u.uncaptured) | std::uint64_t(u.unreborn) << 8 |
                          std::uint64_t(u.capturer_now) << 16 | std::uint64_t(u.rook_from) << 24 |
                          std::uint64_t(u.capturer_lost) << 32 | unit(u.resurrected) << 33 |
                          (unit(u.capturer_before) << 48 ^ std::uint64_t(u.uncaptured_flags) << 60);
        g ^= (std::uint64_t(u.parrain_square) | std::uint64_t(u.parrain_rebirth) << 8 | unit(u.parrain_piece) << 16) *
             0xD6E8FEB86659FD93ull;
        return std::size_t((h ^ (g * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull >> 7);
    }
};

// Whether two boards hold the same units by colour and walk, and under Frisch-auf Circe
// (where it decides the rebirth square) by the promoted mark too.
bool same_marked_units(const std::array<Piece, SQUARE_NB>& a, const std::array<Piece, SQUARE_NB>& b,
                       const RuleSet* rules) {
    if (!same_units(a, b)) return false;
    if (!effective_rules(rules) || !rules->frischauf) return true;
    for (int s = 0; s < SQUARE_NB; ++s)
        if ((a[s].flags ^ b[s].flags) & PF_PROMOTED) return false;
    return true;
}

// The forward move, in the position before (which must load), with u's from, to, kind and
// promotion that gives `after` again (its board and, under Parrain, its waiting unit);
// nullopt when there is none.
std::optional<Move> replayed(const Setup& before, const UnMove& u, const RuleSet* rules, const Setup& after) {
    Position pos;
    SetupRules setup_rules;
    setup_rules.rules = rules;
    try {
        if (!pos.load(before, setup_rules)) return std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
    // Only the moves from u's departure square to its arrival square.
    std::array<Bitboard, SQUARE_NB> to{};
    to[u.move.from] = square_bb(u.move.to);
    MoveList list;
    generate_legal_to(pos, to.data(), list);
    for (const Move& x : list) {
        if (x.from != u.move.from || x.to != u.move.to || x.kind != u.move.kind || x.promotion != u.move.promotion)
            continue;
        UndoInfo undo;
        pos.do_move(x, undo);
        const Setup got = pos.to_setup();
        // Under Parrain the unit the move took waits: the same one as in `after`.
        const bool same = same_marked_units(got.board, after.board, rules) && same_waiting(got, after);
        pos.undo_move(x, undo);
        if (same) return x;
    }
    return std::nullopt;
}

}  // namespace

Setup retract(const Setup& position, const UnMove& u) {
    Setup s;
    s.board = position.board;
    const Color mover = ~position.side_to_move;
    const Move& m = u.move;
    // The reborn unit leaves first: it may stand on the departure square (PWC Circe).
    if (u.uncaptured != NO_WALK && u.unreborn != SQ_NONE) s.board[u.unreborn] = Piece{};
    // Parrain: the unit the move placed leaves; it waits again.
    if (u.parrain_rebirth != SQ_NONE) s.board[u.parrain_rebirth] = Piece{};
    s.parrain_square = u.parrain_square;
    s.parrain_piece = u.parrain_piece;
    // Castling: the rook leaves first (a Mars king may have castled from the square the rook
    // went to) and comes back last (an Anti-Mars rook may have been lifted from the square
    // the king went to).
    Piece rook{}, other_rook{};
    Square rook_back = SQ_NONE;
    if (m.kind == MoveKind::Castling) {
        const int r = rank_of(m.to);
        const bool king_side = file_of(m.to) == 6;
        const Square rook_now = make_square(king_side ? 5 : 3, r), corner = make_square(king_side ? 7 : 0, r);
        rook = s.board[rook_now];
        s.board[rook_now] = Piece{};
        // Anti-Mars: a rook lifted onto the other corner stays there (Popeye 4.104:
        // "[wRa3->a1]0-0"); it goes back to rook_from and the castling rook to its corner.
        const Square lifted_to = u.rook_from != SQ_NONE ? classic_rebirth_square(ROOK, mover, u.rook_from) : SQ_NONE;
        const bool other = lifted_to != SQ_NONE && lifted_to != corner;
        if (other) {
            other_rook = s.board[lifted_to];
            s.board[lifted_to] = Piece{};
        }
        rook_back = u.rook_from != SQ_NONE && !other ? u.rook_from : corner;
        // The rook's right (not for a rook lifted to its corner), and the king's when it
        // castled from its game-array square (a Mars Circe king castles from elsewhere
        // through that square, with no right of its own).
        s.castling =
            (rook_back == corner ? square_bb(corner) : 0) | (m.from == make_square(4, r) ? square_bb(m.from) : 0);
    }
    Piece unit = u.capturer_before;
    if (!u.capturer_lost) {
        const Square now = u.capturer_now != SQ_NONE ? u.capturer_now : m.to;
        if (unit.empty()) unit = s.board[now];
        s.board[now] = Piece{};
    }
    if (m.kind == MoveKind::Promotion) unit = make_piece(mover, PAWN);
    s.board[m.from] = unit;
    if (rook_back != SQ_NONE) s.board[rook_back] = rook;
    if (!other_rook.empty()) s.board[u.rook_from] = other_rook;
    if (!u.resurrected.empty()) s.board[u.unreborn] = u.resurrected;
    if (u.uncaptured != NO_WALK) {
        const Square c = m.kind == MoveKind::EnPassant ? Square(mover == WHITE ? m.to - 8 : m.to + 8) : m.to;
        s.board[c] = make_piece(~mover, u.uncaptured, u.uncaptured_flags);  // a pawn again if it promoted when reborn
    }
    if (m.kind == MoveKind::EnPassant) s.ep_square = m.to;
    s.side_to_move = mover;
    return s;
}

void take_last_capture(Setup& diagram, RuleSet& rules) {
    if (rules.last_capture_square == SQ_NONE) return;
    diagram.parrain_square = rules.last_capture_square;
    diagram.parrain_piece = rules.last_capture_piece;
    rules.last_capture_square = SQ_NONE;
    rules.last_capture_piece = Piece{};
}

bool unmoves_supported(const RuleSet* rules) {
    if (!rules || rules->orthodox()) return true;
    const RuleSet& r = *rules;
    if (r.atom || r.kamikaze || r.alsatian || r.hydra || r.clone || r.chameleon) return false;
    // WaitCapture: which unit the last capture reborned depends on the capture before it.
    if (r.wait_capture) return false;
    const bool plain_occupied = r.occupied == Occupied::Relaxed || r.occupied == Occupied::Strict;
    // Turncoats: the taken unit stands reborn as one of the capturer's side (Circe), or the
    // capturer as one of the other side (Anti-Circe; not with both families); April: a listed
    // walk is always reborn, the others never (not with both families).
    if (r.turncoat && (r.reborn == Reborn::Both || !plain_occupied || r.frischauf)) return false;
    if (r.april && (r.reborn == Reborn::Both || r.occupied == Occupied::Assassin || r.frischauf)) return false;
    // Parrain: the waiting unit is part of the position (Setup::parrain_piece); a unit whose
    // square is held is lost (Relaxed).
    if (parrain_like(r))
        return r.reborn == Reborn::Captured && r.occupied == Occupied::Relaxed && !r.frischauf && !r.mars &&
               !r.antimars;
    if (r.square == SquareRule::TakeMake || r.square == SquareRule::Diagram) return false;
    if (r.mars || r.antimars) return r.reborn == Reborn::None && plain_occupied;
    // Frisch-auf: the diagram's marks say which units promoted (unmove.h).
    if (r.frischauf) return r.reborn == Reborn::Captured && plain_occupied;
    if (r.reborn == Reborn::Captured) return plain_occupied || r.occupied == Occupied::Assassin;
    // Anti-Circe: the capturer's square comes from rebirth_square (no chosen squares); with
    // Circe (both reborn) the same for each half.
    const auto given = [](Occupied o, SquareRule q) {
        return (o == Occupied::Relaxed || o == Occupied::Strict) && q != SquareRule::Super && q != SquareRule::Cage &&
               q != SquareRule::TakeMake && q != SquareRule::Diagram && q != SquareRule::Parrain &&
               q != SquareRule::ContraParrain;
    };
    if (r.reborn == Reborn::Both)
        return given(r.occupied, r.square) && given(r.both_capturer.occupied, r.both_capturer.square) &&
               !r.both_capturer.clone && !r.both_capturer.chameleon && !r.both_capturer.frischauf;
    return r.reborn == Reborn::Capturer && given(r.occupied, r.square);
}

// One way the unit now on t may have arrived: the move, the square of the unit it took if
// it took one (t, or behind t for en passant), whether it may have taken nothing, and
// whether what it took can only be a pawn.
namespace {

struct Arrival {
    Move move;
    Square capture = SQ_NONE;
    bool quiet = false;
    bool taking = false;
    bool pawn_only = false;
};

// The arrivals of unit p (of colour `mover`) on t when the squares `occ` were occupied
// before the move (t aside; departure squares must be empty there). Castling is not here.
void arrivals(Piece p, Color mover, Square t, Bitboard occ, bool circe, std::vector<Arrival>& out) {
    out.clear();
    const int up = mover == WHITE ? 8 : -8;
    const int rr = relative_rank(mover, rank_of(t));
    auto empty = [&](Square s) { return !(occ & square_bb(s)); };
    if (p.walk == PAWN) {
        // Under rebirth rules a pawn may stand, and for some of them move, on its first rank.
        if (rr < (circe ? 1 : 2)) return;
        const Square back = Square(t - up);
        if (empty(back)) {
            out.push_back({Move{back, t}, SQ_NONE, true, false, false});
            const Square start = Square(t - 2 * up);
            if (rr == 3 && empty(start)) out.push_back({Move{start, t}, SQ_NONE, true, false, false});
        }
        for (int df : {-1, 1}) {
            const int f = file_of(t) + df;
            if (f < 0 || f > 7) continue;
            const Square from = make_square(f, rank_of(back));
            if (!empty(from)) continue;
            out.push_back({Move{from, t}, t, false, true, false});
            // En passant: the opponent's pawn stood behind t after its double step.
            if (rr == 5 && empty(back) && empty(Square(t + up)))
                out.push_back({Move{from, t, MoveKind::EnPassant}, back, false, true, true});
        }
        return;
    }
    // Promotion: a pawn of the seventh rank stepped or took onto t.
    if (rr == 7 && p.walk != KING) {
        const Square back = Square(t - up);
        if (empty(back)) out.push_back({Move{back, t, MoveKind::Promotion, p.walk}, SQ_NONE, true, false, false});
        for (int df : {-1, 1}) {
            const int f = file_of(t) + df;
            if (f < 0 || f > 7) continue;
            const Square from = make_square(f, rank_of(back));
            if (empty(from)) out.push_back({Move{from, t, MoveKind::Promotion, p.walk}, t, false, true, false});
        }
    }
    for (Bitboard b = walk_targets(p.walk, t, occ) & ~occ; b;)
        out.push_back({Move{pop_lsb(b), t}, t, true, true, false});
}

// The rebirth square of `taken`, taken on c by move m of `capturer` (as it stood before the
// move) under Circe rules with a square rebirth_square gives.
Square taken_rebirth_square(const RuleSet& rules, Piece taken, Square c, const Move& m, Piece capturer) {
    CaptureFacts f;
    f.unit = taken;
    f.capture = c;
    f.from = m.from;
    f.to = m.to;
    f.capturer = m.kind == MoveKind::Promotion ? make_piece(capturer.color, m.promotion) : capturer;
    f.capturer_walk_before = capturer.walk;
    return rebirth_square(rules, f, reborn_walk(rules, f));
}

// The square the capturer (walk `capturer` after the move, `before` until it) goes to under
// Anti-Circe rules after taking `taken` with a move from `from` to t, on the square `taken_on`
// (t but for en passant; as the forward generator computes it); SQ_NONE when the rules give
// none.
Square capturer_rebirth_square(const RuleSet& rules, Piece capturer, Walk before, Square from, Square t, Piece taken,
                               Square taken_on) {
    CaptureFacts f;
    f.unit = capturer;
    f.capture = taken_on;
    f.from = from;
    f.to = t;
    f.capturer = taken.empty() ? capturer : taken;  // Couscous: the square of the other unit
    f.capturer_walk_before = before;
    return rebirth_square(rules, f, reborn_walk(rules, f));
}

// Circe Parrain / ContraParrain (contra): the retractions of the side that did not move in
// `position` (occupied squares `occ`, the other side's `theirs`), each handed to add(), which
// replays it. The move took the unit the position has waiting (on its square, en passant
// too), or nothing when none waits. Before it, a unit of the mover may have waited, taken on
// a square c where the other side's unit that took it stands now (or the unit the move took):
// the move's vector (castling: the king's plus the rook's; ContraParrain: negated) from c
// gave the square it was placed on, where it stands now, or that square was off the board
// or held and it was lost (any walk). A unit placed on its last rank as a pawn promoted.
// add(u) replays u and hands it on when it gives the position again (returning whether it
// did); pass(u) hands u on as it is (its move the replayed one): a lost waiting unit changes
// nothing the replay sees, so those go with the replay of the move alone.
void parrain_unmoves(const Setup& position, bool contra, Bitboard occ, Bitboard theirs,
                     const std::function<std::optional<Move>(const UnMove&)>& add,
                     const std::function<void(const UnMove&)>& pass) {
    const Color mover = ~position.side_to_move;
    const Square held = position.parrain_square;
    const Piece waiting = position.parrain_piece;
    if (held != SQ_NONE && (waiting.color == mover || waiting.walk == KING)) return;  // not a unit the move took
    const Bitboard takers = theirs | (held != SQ_NONE ? square_bb(held) : 0);
    const Bitboard ours = occ & ~theirs;
    // u (its move found with the units on `ours` but its own off the board when `wide`), with
    // each earlier waiting unit.
    auto with_waiting = [&](UnMove u, bool wide) {
        const Move& m = u.move;
        int df = file_of(m.to) - file_of(m.from), dr = rank_of(m.to) - rank_of(m.from);
        Square rook_now = SQ_NONE;
        if (m.kind == MoveKind::Castling) {
            df += file_of(m.to) == 6 ? -2 : 3;
            rook_now = make_square(file_of(m.to) == 6 ? 5 : 3, rank_of(m.to));
        }
        if (contra) {
            df = -df;
            dr = -dr;
        }
        std::optional<Move> plain;  // the move, replayed with nothing waiting
        if (!wide) plain = add(u);
        for (Bitboard b = takers; b;) {
            const Square c = pop_lsb(b);
            const int f = file_of(c) + df, r = rank_of(c) + dr;
            const Square s = f >= 0 && f < 8 && r >= 0 && r < 8 ? make_square(f, r) : SQ_NONE;
            UnMove w = u;
            w.parrain_square = c;
            if (s != SQ_NONE && (ours & square_bb(s)) && s != m.to && s != rook_now && position.board[s].walk != KING) {
                // Placed on s, where it stands now (a pawn placed on its last rank promoted).
                w.parrain_rebirth = s;
                w.parrain_piece = position.board[s];
                add(w);
                if (w.parrain_piece.walk != PAWN && relative_rank(mover, rank_of(s)) == 7) {
                    w.parrain_piece = make_piece(mover, PAWN);
                    add(w);
                }
                w.parrain_rebirth = SQ_NONE;
            }
            if (!plain || (s != SQ_NONE && !(occ & square_bb(s)))) continue;
            // Lost: its square was off the board or held.
            w.move = *plain;
            for (Walk x : kUncapturable) {
                if (x == PAWN && relative_rank(mover, rank_of(c)) == 7) continue;
                w.parrain_piece = make_piece(mover, x);
                pass(w);
            }
        }
    };
    std::vector<Arrival> ways, wide;
    for (Bitboard b = ours; b;) {
        const Square t = pop_lsb(b);
        const Piece p = position.board[t];
        // The ways with every other unit of the mover off the board too: one of them may have
        // been placed after the move on a square the move crossed (the replay keeps the ways
        // that were open).
        arrivals(p, mover, t, occ, true, ways);
        arrivals(p, mover, t, (occ & ~ours) | square_bb(t), true, wide);
        for (const Arrival& a : wide) {
            const bool plain = std::any_of(ways.begin(), ways.end(), [&](const Arrival& x) {
                return x.move == a.move && x.capture == a.capture && x.quiet == a.quiet && x.taking == a.taking;
            });
            if (held == SQ_NONE) {
                if (a.quiet) with_waiting(UnMove{a.move}, !plain);
            } else if (a.taking && a.capture == held && (!a.pawn_only || waiting.walk == PAWN)) {
                with_waiting(UnMove{a.move, waiting.walk}, !plain);
            }
        }
        // Castling (nothing taken): king on g1/c1 with the rook beside it, its game-array
        // squares empty.
        const int rank = rank_of(t);
        if (held == SQ_NONE && p.walk == KING && relative_rank(mover, rank) == 0 &&
            (file_of(t) == 6 || file_of(t) == 2)) {
            const bool king_side = file_of(t) == 6;
            const Square home = make_square(4, rank), corner = make_square(king_side ? 7 : 0, rank);
            const Piece rk = position.board[make_square(king_side ? 5 : 3, rank)];
            const Bitboard empty_needed =
                square_bb(home) | square_bb(corner) | (king_side ? 0 : square_bb(make_square(1, rank)));
            if (rk.walk == ROOK && rk.color == mover && !(occ & empty_needed))
                with_waiting(UnMove{Move{home, t, MoveKind::Castling}}, false);
        }
    }
}

}  // namespace

void generate_unmoves(const Setup& position, std::vector<UnMove>& out, const RuleSet* rules) {
    out.clear();
    // The first of equal retractions only (two loops may find the same one), in the order found.
    std::unordered_set<UnMove, UnMoveHash> seen;
    for_each_unmove(position, rules, [&](const UnMove& u) {
        if (seen.insert(u).second) out.push_back(u);
        return false;
    });
}

bool for_each_unmove(const Setup& position, const RuleSet* rules, const std::function<bool(const UnMove&)>& visit) {
    init_bitboards();  // the attack tables, before any Position is made
    if (!unmoves_supported(rules)) throw std::invalid_argument("generate_unmoves: rules not supported");
    const bool ruled = effective_rules(rules) != nullptr;
    // Circe with Anti-Circe: the capturer goes to its Anti-Circe square and the taken unit to
    // its Circe square; a capture on the capturer's own square leaves it there (Calvet).
    const bool both = ruled && rules->reborn == Reborn::Both;
    const RuleSet anti_rules = ruled ? capturer_rules(*rules) : RuleSet{};  // the capturer's rebirth rules
    const bool circe = ruled && (rules->reborn == Reborn::Captured || both);
    const bool assassin = circe && rules->occupied == Occupied::Assassin;
    const bool anti = ruled && (rules->reborn == Reborn::Capturer || both);
    // Anti-Circe Turncoats: the capturer stands on its rebirth square as a unit of the other side.
    const bool anti_turncoat = anti && !both && rules->turncoat;
    const bool mars = ruled && rules->mars;
    const bool antimars = ruled && rules->antimars;
    // Frisch-auf Circe: a taken piece may have been a promoted one (marked), which has its own
    // rebirth square.
    const bool frischauf = ruled && rules->frischauf;
    // Square rules whose square rebirth_square gives (not chosen by the mover).
    const bool fixed_square = ruled && rules->square != SquareRule::Super && rules->square != SquareRule::Cage;
    // Whether pawns keep off their first and last ranks as in orthodox chess: no rebirth
    // (Mars), or rebirths on the pawn's second rank (classic and file squares).
    const bool pawn_ranks =
        !ruled || mars || antimars || rules->square == SquareRule::Classic || rules->square == SquareRule::File;
    const Color mover = ~position.side_to_move;
    const int up = mover == WHITE ? 8 : -8;
    Bitboard occ = 0, theirs = 0;  // all units; the opponent's (of the side that did not move last)
    for (int s = 0; s < SQUARE_NB; ++s)
        if (!position.board[s].empty()) {
            if (position.board[s].walk > PAWN) throw std::invalid_argument("generate_unmoves: orthodox units only");
            occ |= square_bb(Square(s));
            if (position.board[s].color != mover) theirs |= square_bb(Square(s));
        }
    // Parrain: each position holds its own waiting unit (Setup::parrain_piece), not the rules.
    const bool parrain = ruled && parrain_like(*rules);
    if (ruled && rules->last_capture_square != SQ_NONE)
        throw std::invalid_argument(
            "generate_unmoves: the rules' LastCapture belongs in the position (take_last_capture)");
    // Replays u; passes it on (with the generator's move) when it gives the position again.
    bool stopped = false;
    auto replay_and_visit = [&](UnMove u) -> std::optional<Move> {
        if (stopped) return std::nullopt;
        const auto x = replayed(retract(position, u), u, rules, position);
        if (!x) return std::nullopt;
        u.move = *x;
        stopped = visit(u);
        return x;
    };
    auto add = [&](const UnMove& u) { return replay_and_visit(u).has_value(); };
    if (parrain) {
        parrain_unmoves(position, rules->square == SquareRule::ContraParrain, occ, theirs, replay_and_visit,
                        [&](const UnMove& u) {
                            if (!stopped) stopped = visit(u);
                        });
        return stopped;
    }
    // Whether a unit of walk w of the opponent may have stood on c (orthodox: no pawn on its
    // first or last rank).
    auto may_stand = [&](Walk w, Square c) {
        const int rr = relative_rank(~mover, rank_of(c));
        return w != PAWN || !pawn_ranks || (rr != 0 && rr != 7);  // other rebirths put pawns anywhere
    };
    // The same for a pawn of the mover on `from` (a Mars capture or an Anti-Mars step started
    // from a rebirth square, the departure any square whose rebirth square fits).
    auto mover_pawn_may_stand = [&](Square from) {
        const int rr = relative_rank(mover, rank_of(from));
        return !pawn_ranks || (rr != 0 && rr != 7);
    };
    // Circe with Anti-Circe: whether the capturer of m (now on m.to), taking a unit of walk w,
    // stayed there: its rebirth square for that capture is that square (Calvet); else it went
    // to that square. Always under the other rules.
    auto stays = [&](const Move& m, Walk w) {
        if (!both) return true;
        const Walk after = m.kind == MoveKind::Promotion ? m.promotion : position.board[m.to].walk;
        const Walk before = m.kind == MoveKind::Promotion ? PAWN : after;
        const Piece taken = make_piece(~mover, m.kind == MoveKind::EnPassant ? PAWN : w);
        return capturer_rebirth_square(anti_rules, make_piece(mover, after), before, m.from, m.to, taken,
                                       capture_square(m, mover)) == m.to;
    };
    // The captures of u's geometry (u.move, capture square c) for every unit that may have
    // stood on c, none of them reborn. Where that unit vanishes (Mars, Anti-Circe)
    // its walk decides nothing but where it may stand: one replay with a queen first.
    auto add_takings = [&](UnMove u, Square c, bool pawn_only) {
        const bool probed =
            (mars || antimars || (anti && !both && rules->square != SquareRule::Couscous)) && !pawn_only;
        if (probed) {
            UnMove probe = u;
            probe.uncaptured = QUEEN;
            if (!add(probe)) return;
        }
        // The capturer as it stood before the move.
        const Piece capturer = u.move.kind == MoveKind::Promotion ? make_piece(mover, PAWN) : position.board[u.move.to];
        for (Walk w : kUncapturable)
            if ((!pawn_only || w == PAWN) && may_stand(w, c) && !(probed && w == QUEEN)) {
                // Under Circe Assassin a unit with a rebirth square is always reborn; under
                // Circe April a listed walk is reborn or not taken at all.
                if (assassin && fixed_square &&
                    taken_rebirth_square(*rules, make_piece(~mover, w), c, u.move, capturer) != SQ_NONE)
                    continue;
                if (circe && rules->april && april_reborn(*rules, w)) continue;
                if (!stays(u.move, w)) continue;
                u.uncaptured = w;
                u.uncaptured_flags = 0;
                add(u);
                if (frischauf && w != PAWN) {
                    u.uncaptured_flags = PF_PROMOTED;
                    add(u);
                }
            }
    };
    // Circe with Anti-Circe: the opponent's units, any of which may stand reborn now.
    const Bitboard opponents = both ? theirs : 0;
    std::vector<Arrival> ways, wide;  // wide: Circe with Anti-Circe, with those units off the board
    for (int ti = 0; ti < SQUARE_NB && !stopped; ++ti) {
        const Square t = Square(ti);
        const Piece p = position.board[t];
        if (p.empty()) continue;
        // Anti-Circe Turncoats: a unit of the other side on t may be the mover's capturer,
        // turned on its rebirth square t (or on the capture square t itself, Calvet): taken
        // back as the mover's unit `own`.
        const bool turned = p.color != mover;
        if (turned && !anti_turncoat) continue;
        Piece own = p;
        own.color = mover;
        if (turned) {
            arrivals(own, mover, t, occ, !pawn_ranks, ways);
            for (const Arrival& a : ways)
                if (a.taking) {
                    UnMove u{a.move};
                    u.capturer_before = own;
                    add_takings(u, a.capture, a.pawn_only);
                }
        }
        // Taking nothing, or a unit that was not reborn (orthodox, an occupied square, a
        // capturer that stayed), unless captures start elsewhere (Mars: below).
        if (!turned) {
            arrivals(p, mover, t, occ, !pawn_ranks, ways);
            for (const Arrival& a : ways) {
                if (a.quiet && !antimars) add(UnMove{a.move});
                if (a.taking && !mars) add_takings(UnMove{a.move}, a.capture, a.pawn_only);
            }
        }
        // Anti-Mars Circe: a non-capture to t started from the rebirth square of the square
        // the unit stood on, any square empty now (a pawn's double step may end on its own
        // square); a promoted unit was a pawn.
        // Only squares whose rebirth square (for the unit as it stood there, as the forward
        // generator computes it: classic squares, mirrored) reaches t on an empty board are
        // tried: a superset, which the replay narrows.
        for (int si = 0; antimars && si < SQUARE_NB; ++si) {
            const Square from = Square(si);
            if ((occ & square_bb(from)) && !(from == t && p.walk == PAWN)) continue;
            const Color side = rules->mirror ? ~mover : mover;
            auto reaches = [&](Walk w) {
                const Square home =
                    w == KING && rules->rex == Rex::Exclusive ? from : classic_rebirth_square(w, side, from);
                if (home == SQ_NONE) return false;
                if (w != PAWN) return (walk_targets(w, home, 0) & square_bb(t)) != 0;
                const int step = int(t) - int(home);
                return step == up || (step == 2 * up && relative_rank(mover, rank_of(home)) == 1);
            };
            const bool pawn_may_stand = mover_pawn_may_stand(from);
            if (p.walk != PAWN && p.walk != KING && relative_rank(mover, rank_of(t)) == 7 && pawn_may_stand &&
                reaches(PAWN))
                add(UnMove{Move{from, t, MoveKind::Promotion, p.walk}});
            if ((p.walk != PAWN || pawn_may_stand) && reaches(p.walk)) add(UnMove{Move{from, t}});
        }
        // Circe: the taken unit is the opponent's unit now on r, reborn there (r was empty
        // before the move, or the mover's departure square; Assassin: or held a unit of
        // either colour, not a king, that the rebirth removed).
        // Turncoats: it stands there as a unit of the mover's side.
        for (int r = 0; circe && !turned && r < SQUARE_NB; ++r) {
            const Piece q = position.board[r];
            if (q.empty() || q.color != (rules->turncoat ? mover : ~mover) || Square(r) == t) continue;
            // A pawn reborn on its last rank promotes.
            const bool promoted = q.walk != PAWN && q.walk != KING && relative_rank(~mover, rank_of(Square(r))) == 7;
            arrivals(p, mover, t, occ & ~square_bb(Square(r)), !pawn_ranks, ways);
            for (const Arrival& a : ways) {
                if (!a.taking || a.capture == Square(r)) continue;
                for (Walk w : {q.walk, promoted ? PAWN : NO_WALK}) {
                    if (w == NO_WALK || (a.pawn_only && w != PAWN) || !may_stand(w, a.capture)) continue;
                    const Piece before = a.move.kind == MoveKind::Promotion ? make_piece(mover, PAWN) : p;
                    if (!stays(a.move, w)) continue;
                    // Frisch-auf: the unit keeps its promoted mark (a pawn reborn promoted had none).
                    const std::uint8_t flags = frischauf && w == q.walk ? q.flags & PF_PROMOTED : 0;
                    if (fixed_square && taken_rebirth_square(*rules, make_piece(~mover, w, flags), a.capture, a.move,
                                                             before) != Square(r))
                        continue;
                    UnMove u{a.move, w, Square(r)};
                    u.uncaptured_flags = flags;
                    add(u);
                    if (!assassin) continue;
                    for (Color c : {WHITE, BLACK})
                        for (Walk z : kUncapturable)
                            if (z != PAWN || may_stand(z, Square(r)))
                                add(UnMove{a.move, w, Square(r), SQ_NONE, make_piece(c, z)});
                }
            }
        }
        // Anti-Circe: the capturer came back to its rebirth square t after taking on some
        // square c (empty now) that has t as its rebirth square.
        // A pawn reborn on its last rank may have promoted there (rebirth_promotes).
        const bool reborn_promoted = anti && p.walk != PAWN && p.walk != KING && relative_rank(mover, rank_of(t)) == 7;
        // The square rules under which the capturer's rebirth square is a function of its walk
        // and the capture square alone (not of the departure square or the taken unit).
        const SquareRule anti_square = anti_rules.square;
        const bool square_only =
            anti && !both && !frischauf &&
            (anti_square == SquareRule::Classic || anti_square == SquareRule::File ||
             anti_square == SquareRule::Symmetry || anti_square == SquareRule::VerticalSymmetry ||
             anti_square == SquareRule::HorizontalSymmetry || anti_square == SquareRule::Antipodes);
        // Circe with Anti-Circe: the taken unit may also stand reborn on its rebirth square r
        // now (r was empty before the move, or is the capture square itself): the capturer's
        // way to c may have crossed r, so the ways are worked out with the opponent's units
        // off the board too, and those that need it keep only the candidate reborn on r.
        for (int ci = 0; anti && ci < SQUARE_NB; ++ci) {
            const Square c = Square(ci);
            // c is empty now, or (Circe with Anti-Circe) holds the taken unit reborn on it.
            const bool held = (occ & square_bb(c)) != 0;
            if (c == t || (held && !(opponents & square_bb(c)))) continue;
            // Where the capturer's rebirth square depends only on its walk after the move and
            // on c, a square c that does not send it to t is left before its ways are worked
            // out (the test below would refuse each of them).
            if (square_only) {
                bool back_to_t = false;
                // A pawn's en passant capture onto c takes on the square behind it.
                const bool ep_rank = relative_rank(mover, rank_of(c)) == 5;
                const Square behind = Square(mover == WHITE ? c - 8 : c + 8);
                auto sends_to_t = [&](Walk after, Walk before, Square on) {
                    return capturer_rebirth_square(anti_rules, make_piece(mover, after), before, c, c,
                                                   make_piece(~mover, QUEEN), on) == t;
                };
                for (Walk after : {p.walk, PAWN})
                    for (Walk before : {after, PAWN})
                        back_to_t = back_to_t || sends_to_t(after, before, c) ||
                                    (ep_rank && before == PAWN && sends_to_t(after, before, behind));
                if (!back_to_t) continue;
            }
            for (const Piece x : {own, reborn_promoted ? make_piece(mover, PAWN) : Piece{}}) {
                if (x.empty()) continue;
                const Bitboard before_occ = (occ & ~square_bb(t)) | square_bb(c);
                arrivals(x, mover, c, before_occ, !pawn_ranks, ways);
                if (both) arrivals(x, mover, c, (before_occ & ~opponents) | square_bb(c), !pawn_ranks, wide);
                for (const Arrival& a : both ? wide : ways) {
                    if (!a.taking) continue;
                    // Whether the way needs no opponent's unit off the board.
                    const bool plain = !both || std::any_of(ways.begin(), ways.end(), [&](const Arrival& b) {
                        return b.taking && b.move == a.move && b.capture == a.capture;
                    });
                    // (An en passant capturer may stand reborn on the taken pawn's square: t.)
                    if (a.capture != c && a.capture != t && (occ & square_bb(a.capture)) &&
                        !(opponents & square_bb(a.capture)))
                        continue;
                    // The capturer's walk after the move (the promoted one) and before it.
                    const Walk after = a.move.kind == MoveKind::Promotion ? a.move.promotion : x.walk;
                    const Walk before = a.move.kind == MoveKind::Promotion ? PAWN : x.walk;
                    for (Walk w : kUncapturable) {
                        if ((a.pawn_only && w != PAWN) || !may_stand(w, a.capture)) continue;
                        const Piece taken = make_piece(~mover, a.move.kind == MoveKind::EnPassant ? PAWN : w);
                        if (capturer_rebirth_square(anti_rules, make_piece(mover, after), before, a.move.from, c, taken,
                                                    a.capture) != t)
                            continue;
                        UnMove u{a.move, w, SQ_NONE, t};
                        if (x != p) u.capturer_before = x;  // a promoted pawn, or turned
                        // The taken unit lost: its square and the capture square empty now (or
                        // the capture square the capturer's rebirth square: en passant).
                        if (plain && !held && (a.capture == t || !(occ & square_bb(a.capture)))) add(u);
                        if (!both) continue;
                        // The taken unit reborn on r (a pawn reborn on its last rank promotes).
                        const Square r = taken_rebirth_square(*rules, make_piece(~mover, w), a.capture, a.move,
                                                              make_piece(mover, before));
                        if (r == SQ_NONE || !(opponents & square_bb(r)) || (held && r != c)) continue;
                        const Piece q = position.board[r];
                        const bool promoted =
                            q.walk != PAWN && q.walk != KING && relative_rank(~mover, rank_of(r)) == 7;
                        if (q.walk != w && !(promoted && w == PAWN)) continue;
                        u.unreborn = r;
                        add(u);
                    }
                }
            }
        }
        // Mars Circe: a capture on t from any square now empty (the capture starts from that
        // square's rebirth square); a promoted unit was a pawn.
        for (int si = 0; mars && si < SQUARE_NB; ++si) {
            const Square from = Square(si);
            if (occ & square_bb(from)) continue;
            const int rr = relative_rank(mover, rank_of(t));
            const bool pawn_may_stand = mover_pawn_may_stand(from);
            if (p.walk != PAWN && p.walk != KING && rr == 7 && pawn_may_stand)
                add_takings(UnMove{Move{from, t, MoveKind::Promotion, p.walk}}, t, false);
            if (p.walk == PAWN && !pawn_may_stand) continue;
            add_takings(UnMove{Move{from, t}}, t, false);
            if (p.walk == PAWN && rr == 5 && !(occ & square_bb(Square(t - up))) && !(occ & square_bb(Square(t + up))))
                add_takings(UnMove{Move{from, t, MoveKind::EnPassant}}, Square(t - up), true);
        }
        // Castling: king on g1/c1 with the rook beside it, its game-array squares empty.
        const int rr = relative_rank(mover, rank_of(t));
        if (!turned && p.walk == KING && rr == 0 && (file_of(t) == 6 || file_of(t) == 2)) {
            const int r = rank_of(t);
            const bool king_side = file_of(t) == 6;
            const Square home = make_square(4, r), corner = make_square(king_side ? 7 : 0, r);
            const Square rook = make_square(king_side ? 5 : 3, r);
            const Piece rk = position.board[rook];
            const Bitboard empty_needed =
                square_bb(home) | square_bb(corner) | (king_side ? 0 : square_bb(make_square(1, r)));
            const bool our_rook = rk.walk == ROOK && rk.color == mover;
            if (our_rook && !(occ & empty_needed)) add(UnMove{Move{home, t, MoveKind::Castling}});
            // Mars Circe: a king castles from its rebirth square (Popeye 4.104:
            // "[wKc1->e1]0-0"), so from any square now empty or now the rook's.
            if (mars && our_rook && !(occ & empty_needed & ~square_bb(home)))
                for (int si = 0; si < SQUARE_NB; ++si)
                    if (!(occ & square_bb(Square(si))) || si == rook)
                        add(UnMove{Move{Square(si), t, MoveKind::Castling}});
            // Anti-Mars Circe: the king castled from its rebirth square `home` (empty, or its
            // own square), so from any square now empty, now the rook's or its own (a castling
            // may end where both units stood: "[wKg1->e1][wRf1->h1]0-0"); the rook from its
            // corner, or lifted there from any square now empty, the king's or its own that
            // has the corner as its rebirth square (Popeye 4.104: "[bRc8->a8]0-0-0"). Or the
            // rook on the other corner was lifted there, and stayed, while the king castled with
            // this corner's rook ("[wRa3->a1]0-0"; the king may have stood on that corner:
            // "[wKa1->e1][wRb2->a1]0-0").
            const Square other_corner = make_square(king_side ? 0 : 7, r);
            const Piece oc = position.board[other_corner];
            // The castlings with a rook lifted onto `onto` (the king's from squares; `plain`:
            // also those with no rook lifted).
            auto lifted = [&](Square onto, bool plain) {
                for (int si = 0; si < SQUARE_NB; ++si) {
                    const Square k = Square(si);
                    if ((occ & square_bb(k)) && k != rook && k != t && k != onto) continue;
                    if (k != home && (occ & square_bb(home))) continue;
                    if (plain) add(UnMove{Move{k, t, MoveKind::Castling}});
                    for (int qi = 0; qi < SQUARE_NB; ++qi) {
                        const Square q = Square(qi);
                        if (q == k || q == onto || ((occ & square_bb(q)) && q != t && q != rook)) continue;
                        if (classic_rebirth_square(ROOK, mover, q) != onto) continue;
                        UnMove u{Move{k, t, MoveKind::Castling}};
                        u.rook_from = q;
                        add(u);
                    }
                }
            };
            if (antimars && our_rook && !(occ & empty_needed & ~square_bb(home))) {
                lifted(corner, true);
                if (oc.walk == ROOK && oc.color == mover) lifted(other_corner, false);
            }
        }
    }
    // Circe Assassin: a unit of the opponent taken on its own rebirth square t is reborn
    // there and removes the capturer (never a king), which vanishes from the board; with Rex
    // Inclusive a king too (Bb4xe1 taking White's king on e1).
    for (int ti = 0; assassin && ti < SQUARE_NB && !stopped; ++ti) {
        const Square t = Square(ti);
        const Piece y = position.board[t];
        if (y.empty() || y.color == mover || (y.walk == KING && rules->rex != Rex::Inclusive)) continue;
        for (Walk w : kUncapturable) {
            const Piece x = make_piece(mover, w);
            arrivals(x, mover, t, occ, !pawn_ranks, ways);
            for (const Arrival& a : ways) {
                if (!a.taking || a.capture != t) continue;
                UnMove u{a.move, y.walk, t};
                u.capturer_before = a.move.kind == MoveKind::Promotion ? make_piece(mover, PAWN) : x;
                u.capturer_lost = true;
                if (fixed_square && taken_rebirth_square(*rules, y, t, a.move, u.capturer_before) != t) continue;
                add(u);
            }
        }
    }
    return stopped;
}

}  // namespace rebirth
