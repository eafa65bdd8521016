#include "rebirth/retro.h"

#include <algorithm>
#include <array>

#include "core/parallel.h"
#include "rebirth/bitboard.h"
#include "rebirth/legality.h"
#include "rebirth/notation.h"
#include "rebirth/position.h"
#include "rebirth/retro_cage.h"
#include "rebirth/retro_closure.h"
#include "rebirth/retro_order.h"
#include "rebirth/walk.h"
#include "rules/rebirth_square.h"

namespace rebirth {

bool is_game_array(const Setup& s) {
    static const Setup start = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    // A unit marked promoted (a FrischAuf diagram, unmove.h) is no unit of the game array.
    return s.side_to_move == WHITE && same_units(s.board, start.board) &&
           std::none_of(s.board.begin(), s.board.end(), [](Piece p) { return p.flags & PF_PROMOTED; });
}

namespace {

char letter(Walk w) { return walk_code(w, Language::English)[0] == 'S' ? 'N' : walk_code(w, Language::English)[0]; }

}  // namespace

namespace {

// may_be_legal's static analysis under rebirth rules: one king a side, at most 8 pawns and
// 16 units a side, and no more pieces of a walk than the game array's plus the missing pawns.
// Under Turncoats (`pooled`), where units change side, the last three for both sides together
// (16 pawns, 32 units, two game arrays). Under Frisch-auf Circe (`marks`), where the promoted
// mark is the truth (unmove.h): no more unmarked pieces of a walk than the game array's, and
// no more marked units than the missing pawns.
bool counts_possible(const Setup& s, bool marks, bool pooled) {
    std::array<int, COLOR_NB> kings{};
    for (const Piece& p : s.board)
        if (p.walk == KING) ++kings[p.color];
    if (kings[WHITE] != 1 || kings[BLACK] != 1) return false;  // never reborn as the other side's
    const int sides = pooled ? 2 : 1;
    for (int group = 0; group < COLOR_NB / sides; ++group) {  // each colour, or both together
        std::array<int, WALK_NB> count{}, marked{};
        int units = 0, promoted = 0;
        for (const Piece& p : s.board)
            if (!p.empty() && (pooled || p.color == Color(group))) {
                ++count[p.walk];
                ++units;
                if (marks && (p.flags & PF_PROMOTED)) {
                    ++marked[p.walk];
                    ++promoted;
                }
            }
        const int pawns = 8 * sides;
        if (count[PAWN] > pawns || units > 16 * sides) return false;
        const int extra = std::max(0, count[QUEEN] - sides) + std::max(0, count[ROOK] - 2 * sides) +
                          std::max(0, count[BISHOP] - 2 * sides) + std::max(0, count[KNIGHT] - 2 * sides);
        if (std::max(extra, promoted) > pawns - count[PAWN]) return false;
        if (marks && (marked[PAWN] || marked[KING] || count[QUEEN] - marked[QUEEN] > sides ||
                      count[ROOK] - marked[ROOK] > 2 * sides || count[BISHOP] - marked[BISHOP] > 2 * sides ||
                      count[KNIGHT] - marked[KNIGHT] > 2 * sides))
            return false;
    }
    return true;
}

}  // namespace

bool may_be_legal(const Setup& s, int depth, const RuleSet* rules) {
    if (effective_rules(rules) ? !counts_possible(s, rules->frischauf, rules->turncoat)
                               : analyze_orthodox_legality(s.board, s.side_to_move).illegal)
        return false;
    if (depth == 0 || is_game_array(s)) return true;
    // One retraction that is not refuted is enough: stop at the first. Only those s's own
    // history allows (fits_history).
    return for_each_unmove(s, rules, [&](const UnMove& u) {
        return fits_history(s, u, rules) && may_be_legal(retract(s, u), depth - 1, rules);
    });
}

namespace {

// Whether the cage search (orthodox chess only) proves `before` illegal.
bool caged(const Setup& before, const RuleSet* rules) { return !effective_rules(rules) && cage_refutes(before); }

}  // namespace

bool last_move_refuted(const Setup& position, const UnMove& u, int depth, const RuleSet* rules) {
    const Setup before = retract(position, u);
    return !may_be_legal(before, depth, rules) || caged(before, rules);
}

std::vector<UnMove> possible_last_moves(const Setup& position, int depth, const RuleSet* rules, int threads,
                                        bool wide) {
    std::vector<UnMove> un, out;
    generate_unmoves(position, un, rules);
    std::vector<char> kept(un.size(), 0);
    run_in_arena(threads, [&] {
        for_each_index(threads, un.size(),
                       [&](size_t i) { kept[i] = !last_move_refuted(position, un[i], depth, rules); });
    });
    for (size_t i = 0; i < un.size(); ++i)
        if (kept[i]) out.push_back(un[i]);
    if (wide) narrow_few_last_moves(position, out, rules, threads);
    return out;
}

namespace {

const UnMove& first_retraction(const UnMove& u) { return u; }
const UnMove& first_retraction(const std::vector<UnMove>& seq) { return seq.front(); }

// Whether the orthodox last move u of `position` is refuted with `levels` more single moves
// taken back: its earlier position (castling rights kept) fails may_be_legal (depth 3) or
// the cage search, or it is not the game array (reached: never refuted) and every retraction
// its history allows from there (fits_history) is refuted with one level fewer.
bool refuted_deeper(const Setup& position, const UnMove& u, int levels) {
    const Setup before = retract_keeping_rights(position, u);
    if (!may_be_legal(before, 3) || cage_refutes(before)) return true;
    if (levels == 0 || is_game_array(before)) return false;
    std::vector<UnMove> un;
    generate_unmoves(before, un);
    return std::all_of(un.begin(), un.end(), [&](const UnMove& v) {
        return !fits_history(before, v) || refuted_deeper(before, v, levels - 1);
    });
}

// Whether the order of the units' last moves (order_facts, kOrderNodes choices a search)
// refutes `before`, or the static analysis does with the units that order proves never moved
// marked frozen and the pieces on their last ranks that it or the cage search proves promoted
// there as their last move (promoted_on_its_square, kPromotedHereStates positions each) marked
// so.
bool refuted_with_marks(const Setup& before) {
    const OrderFacts facts = order_facts(before, kOrderNodes);
    if (facts.refuted) return true;
    LegalityMarks marks = facts.marks;
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Bitboard sq = square_bb(Square(i));
        if (before.board[i].walk == PAWN) marks.frozen &= ~sq;  // walls anyway
        if (!(marks.promoted_here & sq) && promoted_on_its_square(before, Square(i), kPromotedHereStates))
            marks.promoted_here |= sq;
    }
    return !marks.empty() &&
           analyze_orthodox_legality(before.board, before.side_to_move, before.castling, before.ep_square, marks)
               .illegal;
}

// How many kinds of last move `last` (their first retractions, made in `position`) holds, a
// kind being a walk's move onto one square, a capture or not, of one promotion: a rook coming
// to d1 from any of four squares counts once, so does a capture of any of five units.
template <typename Entry>
size_t kinds_of_last_move(const Setup& position, const std::vector<Entry>& last) {
    std::vector<std::array<int, 4>> kinds;
    for (const Entry& e : last) {
        const UnMove& u = first_retraction(e);
        // A promotion's walk is the walk now on its square, its move kind says it promoted.
        const std::array<int, 4> kind{int(u.move.to), int(u.move.kind), int(position.board[u.move.to].walk),
                                      int(u.uncaptured != NO_WALK)};
        if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
    }
    return kinds.size();
}

}  // namespace

template <typename Entry>
void narrow_few_last_moves(const Setup& position, std::vector<Entry>& last, const RuleSet* rules, int threads,
                           size_t others) {
    // Few left: two more single moves back, each position again against the static analysis
    // and the cage search (JR-D-157's h7-h6: before it White castled, before that Black's one
    // move back is e2xd1=N, and no retraction of White's leaves a possible position; the
    // cheapest, so first: JR-D-131's Ba1-b2 goes in a fifth of the time); then a wider cage
    // search on each (janko.at's JR-A-055: the knight taken on h8 by g7xh8=N cannot have come
    // into the corner, 30 times the positions around the kings refute it; JR-A-040: before
    // g7xNf8=Q the white king was shut in on f7 and the eighth rank, the zone of all the units
    // refutes it); last the retraction closure (retro_closure.h: JR-D-103's
    // a7-a6, after which Black's king and White's units go round a lock for ever). First of
    // all, the order of the units' last moves (retro_order.h: JR-D-136's h2xRg1=Q, the corner's
    // units came in no order) and pieces on their last ranks that came there by their
    // promotion (JR-D-160's a7xQb8=N: the black knight on g1 cannot have come there by a
    // knight's move, so h2xg1=N, and Black's promotions then need more captures than Black
    // made).
    if (effective_rules(rules) || last.empty() || last.size() + others < 2) return;
    // Pieces proved promoted on their squares, whatever the number left (kPromotedHereStates
    // positions a piece on its last rank; JR-D-139: White's rook on b8 was promoted there, so
    // none of Black's a7xb6 can have been the last move, a7 holding Black's pawn before it).
    // Drops the last moves whose first retraction `refuted` proves impossible, worked out on
    // `threads`; the order of those left is kept.
    const auto drop = [&](auto&& refuted) {
        std::vector<char> out(last.size(), 0);
        run_in_arena(threads, [&] {
            for_each_index(threads, last.size(), [&](size_t i) { out[i] = refuted(first_retraction(last[i])); });
        });
        std::vector<Entry> left;
        for (size_t i = 0; i < last.size(); ++i)
            if (!out[i]) left.push_back(std::move(last[i]));
        last.swap(left);
    };
    drop([&](const UnMove& u) { return refuted_with_marks(retract_keeping_rights(position, u)); });
    if (last.empty() || last.size() + others < 2 || last.size() > kWiderCageMovesAtMost ||
        kinds_of_last_move(position, last) > kWiderCageAtMost)
        return;
    drop([&](const UnMove& u) {
        return refuted_deeper(position, u, kDeeperLevels) ||
               cage_refutes_wide(retract(position, u), kCageStatesForFew) ||
               closure_refutes(retract_keeping_rights(position, u), kClosurePositionsForFew);
    });
}

template void narrow_few_last_moves(const Setup&, std::vector<UnMove>&, const RuleSet*, int, size_t);
template void narrow_few_last_moves(const Setup&, std::vector<std::vector<UnMove>>&, const RuleSet*, int, size_t);

bool fits_history(const Setup& position, const UnMove& u, const RuleSet* rules) {
    const Move& m = u.move;
    if (position.castling & square_bb(m.to)) return false;
    if (position.ep_square == SQ_NONE) return true;
    // Anti-Mars Circe: a pawn's step starts from its rebirth square (the move's extra).
    const Square start = rules && rules->antimars && m.extra != SQ_NONE ? m.extra : m.from;
    const bool double_step =
        position.board[m.to].walk == PAWN && m.kind == MoveKind::Normal && (m.to - start == 16 || start - m.to == 16);
    return double_step && Square((start + m.to) / 2) == position.ep_square;
}

namespace {

// The retractions of `position` that its own history allows: after a retracted en passant
// capture (position.ep_square set) only the double step through that square; a king or rook
// that keeps a castling right in `position` never moved before it.
void history_unmoves(const Setup& position, std::vector<UnMove>& out, const RuleSet* rules) {
    generate_unmoves(position, out, rules);
    std::erase_if(out, [&](const UnMove& u) { return !fits_history(position, u, rules); });
}

}  // namespace

Setup retract_keeping_rights(const Setup& position, const UnMove& u) {
    Setup s = retract(position, u);
    const Move& m = u.move;
    Bitboard moved = square_bb(m.from) | square_bb(m.to);
    for (Square x : {u.unreborn, u.capturer_now, u.rook_from})
        if (x != SQ_NONE) moved |= square_bb(x);
    if (m.kind == MoveKind::Castling) moved |= square_bb(make_square(file_of(m.to) == 6 ? 7 : 0, rank_of(m.to)));
    // An Anti-Mars rook lifted onto the other corner (unmove.cpp).
    if (m.kind == MoveKind::Castling && u.rook_from != SQ_NONE)
        moved |= square_bb(classic_rebirth_square(ROOK, ~position.side_to_move, u.rook_from));
    s.castling |= position.castling & ~moved;
    return s;
}

namespace {

// The sequences of n more retractions after `line` (the retractions that led to
// `position`), appended to out in generate_unmoves' order; the retractions of one level are
// worked out by `threads` (1: in order on this thread; else work stealing), each keeping its
// sequences apart, so the order does not depend on the threads.
void last_moves_rec(const Setup& position, int n, int depth, const RuleSet* rules, std::vector<UnMove>& line,
                    std::vector<std::vector<UnMove>>& out, int threads) {
    if (n == 0) {
        out.push_back(line);
        return;
    }
    std::vector<UnMove> un;
    history_unmoves(position, un, rules);
    if (threads == 1) {
        for (const UnMove& u : un) {
            const Setup before = retract_keeping_rights(position, u);
            if (!may_be_legal(before, n == 1 ? depth : 0, rules) || (line.empty() && caged(before, rules))) continue;
            line.push_back(u);
            last_moves_rec(before, n - 1, depth, rules, line, out, 1);
            line.pop_back();
        }
        return;
    }
    std::vector<std::vector<std::vector<UnMove>>> parts(un.size());
    for_each_index(threads, un.size(), [&](size_t i) {
        const Setup before = retract_keeping_rights(position, un[i]);
        if (!may_be_legal(before, n == 1 ? depth : 0, rules) || (line.empty() && caged(before, rules))) return;
        std::vector<UnMove> mine = line;
        mine.push_back(un[i]);
        last_moves_rec(before, n - 1, depth, rules, mine, parts[i], threads);
    });
    for (auto& part : parts)
        for (auto& seq : part) out.push_back(std::move(seq));
}

// The position `prefix` (retractions, the last move first) leads back to from `position`,
// with the castling rights history_unmoves and the sequences keep.
Setup replay_retractions(const Setup& position, const std::vector<UnMove>& prefix) {
    Setup s = position;
    for (const UnMove& u : prefix) s = retract_keeping_rights(s, u);
    return s;
}

}  // namespace

std::vector<std::vector<UnMove>> possible_last_moves(const Setup& position, int n, int depth, const RuleSet* rules,
                                                     int threads) {
    std::vector<std::vector<UnMove>> out;
    std::vector<UnMove> line;
    run_in_arena(threads, [&] { last_moves_rec(position, n, depth, rules, line, out, threads); });
    return out;
}

std::vector<std::vector<UnMove>> retraction_prefixes(const Setup& position, int k, const RuleSet* rules) {
    std::vector<std::vector<UnMove>> out;
    std::vector<UnMove> line;
    last_moves_rec(position, k, 0, rules, line, out, 1);
    return out;
}

std::vector<std::vector<UnMove>> last_moves_after(const Setup& position, const std::vector<UnMove>& prefix, int n,
                                                  int depth, const RuleSet* rules, int threads) {
    std::vector<std::vector<UnMove>> out;
    const int k = static_cast<int>(prefix.size());
    if (k > n) return out;
    const Setup before = replay_retractions(position, prefix);
    // The prefix's last retraction passed only the static test; the last of all passes the
    // refutation search too, as in possible_last_moves.
    if (k == n && k > 0 && !may_be_legal(before, depth, rules)) return out;
    std::vector<UnMove> line = prefix;
    run_in_arena(threads, [&] { last_moves_rec(before, n - k, depth, rules, line, out, threads); });
    return out;
}

std::string LastMovesAnswer::verdict() const {
    size_t count = 0;
    for (const Side& side : sides) count += side.sequences.size();
    return count == 0 ? "none" : count == 1 ? "unique" : "unresolved";
}

LastMovesAnswer last_moves(const Setup& diagram, int n, std::optional<Color> moved_last, int depth,
                           const RuleSet* rules, int threads) {
    LastMovesAnswer answer;
    for (Color mover : {WHITE, BLACK}) {
        if (moved_last && *moved_last != mover) continue;
        LastMovesAnswer::Side side;
        side.moved_last = mover;
        side.position = diagram;
        side.position.side_to_move = ~mover;
        // One move of either side: the second look below, with both sides' counts.
        if (n == 1)
            for (const UnMove& u : possible_last_moves(side.position, depth, rules, threads, moved_last.has_value()))
                side.sequences.push_back({u});
        else
            side.sequences = possible_last_moves(side.position, n, depth, rules, threads);
        answer.sides.push_back(std::move(side));
    }
    if (n == 1 && !moved_last) {
        const size_t white = answer.sides[0].sequences.size(), black = answer.sides[1].sequences.size();
        narrow_few_last_moves(answer.sides[0].position, answer.sides[0].sequences, rules, threads, black);
        narrow_few_last_moves(answer.sides[1].position, answer.sides[1].sequences, rules, threads, white);
    }
    return answer;
}

std::string last_move_type(const Setup& position, const UnMove& u) {
    const Move& m = u.move;
    if (m.kind == MoveKind::Castling) return file_of(m.to) == 6 ? "O-O" : "O-O-O";
    if (m.kind == MoveKind::EnPassant) return "ep";
    // The unit as it stood before the move (a pawn for a promotion).
    const Walk unit = retract(position, u).board[m.from].walk;
    const bool pawn = unit == PAWN;
    std::string t(1, pawn ? 'P' : letter(unit));
    if (u.uncaptured != NO_WALK) {
        t += 'x';
        t += letter(u.uncaptured);
    } else {
        t += '-';
        if (pawn && (m.to - m.from == 16 || m.from - m.to == 16)) t += '-';
    }
    if (m.kind == MoveKind::Promotion) {
        t += '=';
        t += letter(m.promotion);
    }
    return t;
}

namespace {

// A move in the notation of the retro reference data, played from `before`: unit letter (none
// for pawns), departure, `x` and the taken unit's letter `taken` (none for en passant) or `-`,
// arrival, `=` and the promotion letter, `ep`; castling `O-O` / `O-O-O`. Under rebirth rules
// the move's effects follow in Popeye's brackets, then `extra` (units a retraction brings
// back). A taken unit marked promoted under Frisch-auf Circe (`taken_flags`) is written as
// Popeye writes such units, `f` before its letter. `setup_rules` must hold rules or null.
std::string move_notation(const Setup& before, const Move& m, Walk taken, std::uint8_t taken_flags,
                          const SetupRules& setup_rules, const std::string& extra) {
    std::string t;
    if (m.kind == MoveKind::Castling) {
        t = file_of(m.to) == 6 ? "O-O" : "O-O-O";
    } else {
        const Walk unit = before.board[m.from].walk;
        if (unit != PAWN) t += letter(unit);
        t += square_name(m.from);
        if (taken != NO_WALK) {
            t += 'x';
            if (m.kind != MoveKind::EnPassant) {  // Kb3xPc3, b4xc3ep; Frisch-auf: Nc3xfQd5
                if (setup_rules.rules && setup_rules.rules->frischauf && (taken_flags & PF_PROMOTED)) t += 'f';
                t += letter(taken);
            }
        } else {
            t += '-';
        }
        t += square_name(m.to);
        if (m.kind == MoveKind::Promotion) {
            t += '=';
            t += letter(m.promotion);
        }
        if (m.kind == MoveKind::EnPassant) t += "ep";
    }
    if (setup_rules.rules) {
        try {
            // The effects as Popeye writes them after the move ("Sc3*d5[+bPd7]").
            const std::string popeye = move_to_popeye(Position(before, setup_rules), m);
            if (const auto b = popeye.find('['); b != std::string::npos) t += popeye.substr(b);
        } catch (const std::exception&) {
        }
        t += extra;
    }
    return t;
}

}  // namespace

std::string janko_notation(const Setup& position, const UnMove& u, const RuleSet* rules) {
    const Move& m = u.move;
    const Setup before = retract(position, u);
    SetupRules setup_rules;
    setup_rules.rules = effective_rules(rules);
    // Popeye writes no Assassin removal (nor a Parrain unit lost); a retraction names every
    // unit it brings back.
    std::string extra;
    const auto removed = [](Piece p, Square s) {
        return std::string("[-") + (p.color == WHITE ? 'w' : 'b') + std::string(walk_code(p.walk, Language::English)) +
               square_name(s) + "]";
    };
    if (!u.resurrected.empty()) extra += removed(u.resurrected, u.unreborn);
    // Parrain: a unit taken before that this move could not place (its square off the board
    // or held) leaves the game with it, named by the square it was taken on.
    if (u.parrain_square != SQ_NONE && u.parrain_rebirth == SQ_NONE)
        extra += removed(u.parrain_piece, u.parrain_square);
    if (u.capturer_lost) {
        const Walk w = m.kind == MoveKind::Promotion ? m.promotion : u.capturer_before.walk;
        extra += removed(make_piece(u.capturer_before.color, w), m.to);
    }
    std::string t = move_notation(before, m, u.uncaptured, u.uncaptured_flags, setup_rules, extra);
    try {
        Position after;
        after.set(position, setup_rules);
        if (after.in_check()) t += '+';
    } catch (const std::exception&) {
    }
    return t;
}

std::string forward_notation(const Setup& before, const Move& m, const RuleSet* rules) {
    SetupRules setup_rules;
    setup_rules.rules = effective_rules(rules);
    const Walk taken = m.kind == MoveKind::EnPassant ? PAWN : before.board[m.to].walk;
    const std::uint8_t flags = m.kind == MoveKind::EnPassant ? 0 : before.board[m.to].flags;
    return move_notation(before, m, taken, flags, setup_rules, "");
}

}  // namespace rebirth
