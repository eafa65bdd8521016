// The proof-game bounds under rebirth rules (proof_rebirth.h): distances worked out by hand
// from RULES.md's rebirth squares, the rule sets the model refuses, and soundness on played
// games under every condition of the model: no position of a seeded random game needs more
// moves of a side than the game still made.

#include <gtest/gtest.h>

#include "test_util.h"

#include <random>
#include <string>
#include <vector>

#include "rebirth/distance.h"
#include "rebirth/movegen.h"
#include "rebirth/popeye_input.h"
#include "rebirth/proof_rebirth.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"

namespace rebirth {
namespace {

using test::game_array_under;
using test::kGameArray;

RuleSet rules_of(const char* words) { return resolve_rules(parse_condition_words(words, "test"), "test"); }

// A position under `rules` from a FEN (keeps a reference to the rules: keep them alive).
Position position_under(const RuleSet& rules, const char* fen) {
    SetupRules sr;
    sr.rules = &rules;
    Position pos;
    pos.set(parse_fen(fen), sr);
    return pos;
}

// A condition's rules, the game array under them and the bound for play from there (its
// origins are Diagram Circe's rebirth squares). Not copyable: the position keeps the rules.
struct UnderRules {
    explicit UnderRules(const char* words)
        : rules(rules_of(words)), start(game_array_under(rules)), bound(RebirthBound::make(rules, &start)) {}
    UnderRules(const UnderRules&) = delete;
    UnderRules& operator=(const UnderRules&) = delete;
    const RuleSet rules;
    const Position start;
    const std::unique_ptr<const RebirthBound> bound;
};

// A seeded random game of up to `plies` half-moves from `start` (every position on the way),
// taking whenever it can when `takes_first` (so that units are reborn).
std::vector<Position> random_game(const Position& start, int plies, bool takes_first, std::mt19937& rng) {
    std::vector<Position> line{start};
    Position pos = start;
    for (int ply = 0; ply < plies; ++ply) {
        MoveList list, takes;
        generate_legal(pos, list);
        if (list.empty()) break;
        for (const Move& m : list)
            if (!pos.empty(m.to) || m.kind == MoveKind::EnPassant) takes.push(m);
        const MoveList& from = takes_first && !takes.empty() ? takes : list;
        UndoInfo u;
        pos.do_move(from[std::uniform_int_distribution<int>(0, from.size() - 1)(rng)], u);
        line.push_back(pos);
    }
    return line;
}

// Circe (RULES.md 3): a pawn never goes back, but captured on d5 it is reborn on d2: no move
// of its own. A knight from c3 to b1: one move, a rebirth (captured on c3: reborn on g1, a
// dark square's home) does not help.
TEST(ProofRebirth, CirceDistances) {
    const auto b = RebirthBound::make(rules_of("Circe"));
    ASSERT_TRUE(b);
    EXPECT_GE(b->distance(WHITE, PAWN, SQ_D5, PAWN, SQ_D2, 0), kFar);
    EXPECT_EQ(b->distance(WHITE, PAWN, SQ_D5, PAWN, SQ_D2, 1), 0);
    // Reborn on d2, then d2-d4 is one move (double step); e4 takes two (a capture to e6 and
    // the rebirth on e2, or d2-d3xe4).
    EXPECT_EQ(b->distance(WHITE, PAWN, SQ_D5, PAWN, SQ_D4, 1), 1);
    EXPECT_EQ(b->distance(WHITE, PAWN, SQ_D5, PAWN, SQ_E4, 1), 2);
    EXPECT_EQ(b->distance(WHITE, KNIGHT, SQ_C3, KNIGHT, SQ_B1, 0), 1);
    EXPECT_EQ(b->distance(WHITE, KNIGHT, SQ_C3, KNIGHT, SQ_B1, 2), 1);
    // Kings are never captured (Rex Exclusive): no rebirth.
    EXPECT_EQ(b->distance(WHITE, KING, SQ_E4, KING, SQ_E1, 2), 3);
    // Bishops keep their square colour, reborn on the home square of the capture square's colour.
    EXPECT_GE(b->distance(WHITE, BISHOP, SQ_C1, BISHOP, SQ_H1, 2), kFar);
    // Circe Rex Inclusive: the king captured anywhere is reborn on e1.
    const auto rex = RebirthBound::make(rules_of("Circe RexInclusive"));
    ASSERT_TRUE(rex);
    EXPECT_EQ(rex->distance(WHITE, KING, SQ_E4, KING, SQ_E1, 1), 0);
}

// Circe Take&Make (Popeye's py-engl.txt: "Circe Take&Make (also known as Anti-Take&Make)",
// and the move generator's rule): the captured unit comes back by a non-capturing move of its
// own walk from the capture square. A knight from b1 to h8 needs five moves; a rebirth is one
// knight step for nothing, so four with one (none only if it could come back anywhere). A pawn
// taken on e2 comes back on e3 or e4, on e5 only by a move of its own; one taken on its first
// rank (reborn nowhere by a step) gains nothing.
TEST(ProofRebirth, TakeMakeRebirthIsOneMoveOfTheCapturedUnit) {
    const auto b = RebirthBound::make(rules_of("Circe Take&Make"));
    ASSERT_TRUE(b);
    EXPECT_EQ(b->distance(WHITE, KNIGHT, SQ_B1, KNIGHT, SQ_H8, 0), 5);
    EXPECT_EQ(b->distance(WHITE, KNIGHT, SQ_B1, KNIGHT, SQ_H8, 1), 4);
    EXPECT_EQ(b->distance(WHITE, PAWN, SQ_E2, PAWN, SQ_E4, 1), 0);
    EXPECT_EQ(b->distance(WHITE, PAWN, SQ_E2, PAWN, SQ_E5, 1), 1);
    EXPECT_EQ(b->distance(BLACK, PAWN, SQ_E7, PAWN, SQ_E5, 1), 0);
    EXPECT_EQ(b->distance(WHITE, ROOK, SQ_A1, ROOK, SQ_H8, 1), 1);
}

// Vertical-symmetry Circe: a bishop captured on a dark square is reborn on its mirror square,
// a light one. From c1 to h1 (light): one move to b2, captured there, reborn on g2, one move
// to h1 (captured on c1 at once: reborn on f1, two moves from h1).
TEST(ProofRebirth, VerticalSymmetryChangesABishopsColour) {
    const auto b = RebirthBound::make(rules_of("Circe VerticalSymmetry"));
    ASSERT_TRUE(b);
    EXPECT_GE(b->distance(WHITE, BISHOP, SQ_C1, BISHOP, SQ_H1, 0), kFar);
    EXPECT_EQ(b->distance(WHITE, BISHOP, SQ_C1, BISHOP, SQ_H1, 1), 2);
    EXPECT_EQ(b->distance(WHITE, BISHOP, SQ_C1, BISHOP, SQ_F1, 1), 0);
}

// Diagram Circe (RULES.md 4): a unit is reborn on its square in the diagram, here the game
// array where play starts. A knight on c3 needs 4 moves to h8 (c3-e4-g5-f7-h8; 5+5 squares
// away, at most 3 a move). Reborn, it stands on b1 or g1 (the knights' origins) or, being
// perhaps a promoted pawn, on a pawn's origin: from g2, 3 moves (g2-h4-g6-h8). Without the
// start position every square could be a diagram square: no move needed with a rebirth.
TEST(ProofRebirth, DiagramCirceRebirthsOnTheOrigins) {
    const RuleSet rules = rules_of("Circe Diagram");
    const Position start = game_array_under(rules);
    const auto with_start = RebirthBound::make(rules, &start);
    const auto without = RebirthBound::make(rules);
    ASSERT_TRUE(with_start && without);
    EXPECT_EQ(with_start->distance(WHITE, KNIGHT, SQ_C3, KNIGHT, SQ_H8, 0), 4);
    EXPECT_EQ(with_start->distance(WHITE, KNIGHT, SQ_C3, KNIGHT, SQ_H8, 2), 3);
    EXPECT_EQ(with_start->distance(WHITE, KNIGHT, SQ_C3, KNIGHT, SQ_G1, 1), 0);
    EXPECT_EQ(without->distance(WHITE, KNIGHT, SQ_C3, KNIGHT, SQ_H8, 2), 0);
}

// Anti-Circe: the capturer goes to its rebirth square with the capture: a rook on a4 that
// captures anywhere on a dark square lands on a1 (one move), on a light one on h1.
TEST(ProofRebirth, AntiCirceCapturerLandsHome) {
    const auto b = RebirthBound::make(rules_of("AntiCirce"));
    ASSERT_TRUE(b);
    EXPECT_EQ(b->distance(WHITE, ROOK, SQ_B4, ROOK, SQ_H1, 0), 1);
    // A pawn that captures is reborn on its second rank, on the capture file: from e5 to d2
    // or f2 in one move (a pawn never goes back by its own moves), to b2 not in one.
    EXPECT_EQ(b->distance(WHITE, PAWN, SQ_E5, PAWN, SQ_D2, 0), 1);
    EXPECT_EQ(b->distance(WHITE, PAWN, SQ_E5, PAWN, SQ_F2, 0), 1);
    EXPECT_GT(b->distance(WHITE, PAWN, SQ_E5, PAWN, SQ_B2, 0), 1);
    EXPECT_GE(empty_distances_as(PAWN, WHITE, SQ_E5, PAWN)[SQ_D2], kFar);
}

// Parrain: the rebirth square is the capture square moved by the next move's vector: a queen's
// line or a knight's step. A knight on g1 captured there may come back on b6 (a diagonal
// away) at once; without a rebirth it needs four moves.
TEST(ProofRebirth, ParrainVectors) {
    const auto b = RebirthBound::make(rules_of("Circe Parrain"));
    ASSERT_TRUE(b);
    EXPECT_EQ(b->distance(WHITE, KNIGHT, SQ_G1, KNIGHT, SQ_B6, 0), empty_distance(KNIGHT, WHITE, SQ_G1, SQ_B6));
    EXPECT_EQ(b->distance(WHITE, KNIGHT, SQ_G1, KNIGHT, SQ_B6, 1), 0);
    // From g1, b5 is neither on a line nor a knight's step: one rebirth does not bring it there
    // without a move.
    EXPECT_GT(b->distance(WHITE, KNIGHT, SQ_G1, KNIGHT, SQ_B5, 1), 0);
    // A knight's step as the vector (the next move a knight's): a rook captured on a1 comes
    // back on b3.
    EXPECT_EQ(b->distance(WHITE, ROOK, SQ_A1, ROOK, SQ_B3, 1), 0);
    EXPECT_EQ(b->distance(WHITE, ROOK, SQ_A1, ROOK, SQ_B3, 0), 2);
    // ContraParrain: the opposite vector, the same squares.
    const auto contra = RebirthBound::make(rules_of("Circe ContraParrain"));
    ASSERT_TRUE(contra);
    EXPECT_EQ(contra->distance(WHITE, ROOK, SQ_A1, ROOK, SQ_B3, 1), 0);
}

// Parrain's rebirth waits for the captured side's next move (RULES.md 5), so a side reborn k
// times answers each capture with a move of its own. Target: the diagram of Popeye's
// REGRESSIONS_4_37_to_4_41_004 (dia3.5: the game array with the g1 knight on b6). After
// 1.Sb1-a3 c7-c6 2.g2-g3 e7-e6, White to play two moves and Black one: no pawn steps back, so
// each pawn off its square needs a rebirth. Black's one move answers at most one capture:
// c6 and e6 cannot both come home. White is reborn at most once (Black takes once, White
// answers with its last move): the g3 pawn takes that rebirth, and the knight needs three
// moves to b6 without one (with White's king ending on e1, castling spares nothing).
TEST(ProofRebirth, ParrainRebirthsWaitForAnAnswer) {
    const RuleSet rules = rules_of("Circe Parrain");
    const auto b = RebirthBound::make(rules);
    ASSERT_TRUE(b);
    const Position pos = position_under(rules, "rnbqkbnr/pp1p1ppp/2p1p3/8/8/N5P1/PPPPPP1P/R1BQKBNR w KQkq - 0 3");
    const Board target = parse_fen("rnbqkbnr/pppppppp/1N6/8/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1").board;
    EXPECT_GT(b->moves_needed(pos, target, BLACK, 1, 2), 1);
    EXPECT_GT(b->moves_needed(pos, target, WHITE, 2, 1), 2);
    // With one Black move more (two Black moves, two White) both black pawns could come home,
    // each captured and answered.
    EXPECT_LE(b->moves_needed(pos, target, BLACK, 2, 2), 2);
}

// Anti-Mars castling (RULES.md 5: non-captures start from the rebirth square): the king castles
// from e1 without a right of its own. From a game the soundness test met: 5.Ke1-f1 took White's
// rights, and 5...Bc5 6.Sh3 Qg5 7.0-0 (the king from f1 by way of e1, the rook h1-f1) a5 8.Qe1
// a6 (from a7, the pawn's rebirth square) 9.a4: White's four moves from the position after
// 5.Kf1 reach the target; the castling spares the rook's move.
TEST(ProofRebirth, AntiMarsCastlesWithoutTheKingsRight) {
    const RuleSet rules = rules_of("AntiMarsCirce");
    const auto b = RebirthBound::make(rules);
    ASSERT_TRUE(b);
    const Position pos = position_under(rules, "rnbqkbnr/pppp1pp1/4p2p/8/6P1/8/PPPPPPBP/RNBQ1KNR b kq - 1 3");
    const Board target = parse_fen("rnb2knr/1ppp1pp1/p3p2p/2b3q1/P5P1/7N/1PPPPPBP/RNB1QRK1 w - - 0 1").board;
    EXPECT_LE(b->moves_needed(pos, target, WHITE, 4, 5), 4);
}

// Mars Circe: a capture starts from the capturer's rebirth square. A white knight on h5 (a
// light square) has b1 as its rebirth square (RULES.md 3: b1 is the light one), so one
// capture takes it to a3, c3 or d2, each at least two knight moves from h5.
TEST(ProofRebirth, MarsCaptureFromTheRebirthSquare) {
    const auto b = RebirthBound::make(rules_of("MarsCirce"));
    ASSERT_TRUE(b);
    for (Square s : {SQ_A3, SQ_C3, SQ_D2}) {
        EXPECT_EQ(b->distance(WHITE, KNIGHT, SQ_H5, KNIGHT, s, 0), 1);
        EXPECT_GT(empty_distance(KNIGHT, WHITE, SQ_H5, s), 1);
    }
    EXPECT_EQ(b->distance(WHITE, KNIGHT, SQ_H5, KNIGHT, SQ_G3, 0), 1);
}

// Along a played `line` with its last board as the target: from every position each side needs
// no more moves than the game still made, and its surplus units can go.
void expect_within_the_game(const RebirthBound& bound, const std::vector<Position>& line, const std::string& what) {
    const Board target = line.back().to_setup().board;
    const int n = int(line.size()) - 1;
    for (int k = 0; k <= n; ++k) {
        const Color stm = line[k].side_to_move();
        const int own = (n - k + 1) / 2, other = (n - k) / 2;
        for (Color c : {stm, ~stm}) {
            const int mine = c == stm ? own : other, theirs = c == stm ? other : own;
            ASSERT_LE(bound.moves_needed(line[k], target, c, mine, theirs), mine)
                << what << ", ply " << k << ", " << (c == WHITE ? "White" : "Black");
            ASSERT_TRUE(bound.surplus_possible(line[k], target, c, mine, theirs)) << what << ", ply " << k;
        }
    }
}

// Castling under Circe Rex Inclusive, where a king reborn at home castles again. Target:
// 1.Sg1-f3 2.e2-e3 3.Bf1-e2 4.0-0 (knight, pawn, bishop, king and rook one move each, less the
// castling: 4). Black's captures could bring the king back to castle again, but each castling
// is a king move too, and the king ends on g1, one king move (castling) from e1 and none from
// g1: all castlings together spare one move at most, 4 with any number of moves left to Black.
TEST(ProofRebirth, CastlingsSpareAtMostTheKingsWay) {
    const RuleSet rules = rules_of("Circe RexInclusive");
    const auto b = RebirthBound::make(rules);
    ASSERT_TRUE(b);
    const Position start = game_array_under(rules);
    const Board target = parse_fen("rnbqkbnr/pppppppp/8/8/8/4PN2/PPPPBPPP/RNBQ1RK1 w kq - 0 1").board;
    for (int black = 0; black <= 4; black += 2) EXPECT_EQ(b->moves_needed(start, target, WHITE, 6, black), 4);
    // King on f1 and rook on g1 (1.Sg1-f3 2.e2-e3 3.Bf1-e2 4.Ke1-f1 5.Rh1-g1): the king is as
    // far from f1 after a castling (on g1) as before: no castling spares anything, 5.
    const Board swapped = parse_fen("rnbqkbnr/pppppppp/8/8/8/4PN2/PPPPBPPP/RNBQ1KR1 w kq - 0 1").board;
    EXPECT_EQ(b->moves_needed(start, swapped, WHITE, 6, 2), 5);
}

// Castling spares a move only to a rook that ends on a rook target square no rook stands on
// now: with both rooks at home and targets, whatever castles, a rook must go back (by a move,
// or by a rebirth that is no move of White's). Target: 1.Sg1-f3 2.e2-e3 3.Bf1-e2 and the king
// on g1 (4.0-0 and Black takes the rook on f1, which is reborn on h1): 4, as without castling
// (the king's distance counts castling as one king move).
TEST(ProofRebirth, NoCastlingSavingWithoutAnOpenRookTarget) {
    const RuleSet rules = rules_of("Circe RexInclusive");
    const auto b = RebirthBound::make(rules);
    ASSERT_TRUE(b);
    const Position start = game_array_under(rules);
    const Board target = parse_fen("rnbqkbnr/pppppppp/8/8/8/4PN2/PPPPBPPP/RNBQ2KR w kq - 0 1").board;
    EXPECT_EQ(b->moves_needed(start, target, WHITE, 6, 0), 4);
    EXPECT_EQ(b->moves_needed(start, target, WHITE, 6, 2), 4);
}

// Soundness where castling counts: games that castle whenever they can and otherwise take (a
// king first, so that it is reborn at home), under the conditions where a king is reborn at
// home (by the other side's capture, or as a capturer) or castles without its right (Anti-Mars,
// Mars Circe Rex Inclusive): no position on the way needs more moves than the game made.
TEST(ProofRebirth, NeverMoreThanAGameThatCastles) {
    std::mt19937 rng(31);
    std::array<int, COLOR_NB> castled{0, 0};
    for (const char* words :
         {"Circe RexInclusive", "Circe Assassin RexInclusive", "AntiCirce", "AntiCirce Cheylan",
          "Circe Mirror RexInclusive", "Circe Super RexInclusive", "AntiMarsCirce", "MarsCirce RexInclusive"}) {
        const UnderRules under(words);
        ASSERT_TRUE(under.bound) << words;
        for (int game = 0; game < 40; ++game) {
            std::vector<Position> line{under.start};
            Position pos = under.start;
            for (int ply = 0; ply < 24; ++ply) {
                MoveList list, castles, takes, kings;
                generate_legal(pos, list);
                if (list.empty()) break;
                for (const Move& m : list) {
                    if (m.kind == MoveKind::Castling) castles.push(m);
                    if (!pos.empty(m.to) || m.kind == MoveKind::EnPassant) takes.push(m);
                    if (pos.piece_on(m.to).walk == KING || pos.piece_on(m.from).walk == KING) kings.push(m);
                }
                // Castle, else take with or take a king (so that it is reborn at home), else take.
                // In odd games a rook that can go back to an empty corner of its side goes there
                // first (so that targets have rooks at home after castlings).
                MoveList king_takes, rooks_home;
                for (const Move& m : kings)
                    if (!pos.empty(m.to)) king_takes.push(m);
                for (const Move& m : list)
                    if (pos.piece_on(m.from).walk == ROOK && (rank_of(m.to) == (pos.side_to_move() == WHITE ? 0 : 7)) &&
                        (file_of(m.to) == 0 || file_of(m.to) == 7))
                        rooks_home.push(m);
                const MoveList& from = !castles.empty()                  ? castles
                                       : game % 2 && !rooks_home.empty() ? rooks_home
                                       : !king_takes.empty()             ? king_takes
                                       : !takes.empty() && rng() % 2     ? takes
                                                                         : list;
                if (!castles.empty()) ++castled[pos.side_to_move()];
                UndoInfo u;
                pos.do_move(from[std::uniform_int_distribution<int>(0, from.size() - 1)(rng)], u);
                line.push_back(pos);
            }
            expect_within_the_game(*under.bound, line, std::string(words) + ", game " + std::to_string(game));
            if (HasFatalFailure()) return;
        }
    }
    EXPECT_GT(castled[WHITE] + castled[BLACK], 40);
}

TEST(ProofRebirth, RefusedRules) {
    for (const char* words : {"Circe Chameleon", "Circe Clone", "Circe Volcanic", "Circe Parachute"})
        EXPECT_FALSE(RebirthBound::make(rules_of(words))) << words;
}

// The conditions the soundness test plays.
const char* const kConditions[] = {
    "Circe",
    "Circe Parrain",
    "Circe ContraParrain",
    "AntiCirce",
    "AntiCirce Cheylan",
    "AntiCirce Relaxed",
    "AntiCirce Symmetry",
    "AntiCirce Couscous",
    "Circe Assassin",
    "Circe Assassin RexInclusive",
    "MarsCirce",
    "MarsCirce Mirror",
    "AntiMarsCirce",
    "AntiMarsCirce RexInclusive",
    "MarsCirce RexInclusive",
    "Circe Symmetry",
    "HorizontalSymmetryCirce",
    "Circe VerticalSymmetry",
    "Circe Antipodes",
    "Circe Diametral",
    "PWC",
    "Circe Equipollents",
    "Circe Couscous",
    "Circe RexInclusive",
    "Circe Mirror",
    "FrischaufCirce",
    "Circe AntiCirce",
    "Circe Cage",
    "SuperCirce",
    "Circe Take&Make",
    "Circe Diagram",
    "Circe File",
    "Circe Rank",
    "Circe Strict",
    "Circe PWC RexInclusive",
    "Circe VerticalMirror",
    "Circe Couscous Mirror",
    "AntiCirce PWC",
    "AntiCirce Equipollents",
};

// RebirthBoundCache gives RebirthBound::moves_needed's value: under each condition, on every
// position of seeded random games (captures preferred) for several move budgets, each asked
// twice so that the second answer comes from the table.
TEST(ProofRebirth, CacheGivesTheSameValues) {
    std::mt19937 rng(29);
    long hits = 0;
    for (const char* words : kConditions) {
        const UnderRules under(words);
        ASSERT_TRUE(under.bound) << words;
        for (int game = 0; game < 6; ++game) {
            std::vector<Position> line{under.start};
            Position pos = under.start;
            for (int ply = 0; ply < 14; ++ply) {
                MoveList list, takes;
                generate_legal(pos, list);
                if (list.empty()) break;
                for (const Move& m : list)
                    if (!pos.empty(m.to) || m.kind == MoveKind::EnPassant) takes.push(m);
                const MoveList& from = !takes.empty() && rng() % 2 ? takes : list;
                UndoInfo u;
                pos.do_move(from[std::uniform_int_distribution<int>(0, from.size() - 1)(rng)], u);
                line.push_back(pos);
            }
            const Board target = line.back().to_setup().board;
            RebirthBoundCache cache(*under.bound, target);
            for (int round = 0; round < 2; ++round)
                for (const Position& p : line)
                    for (Color c : {WHITE, BLACK})
                        for (int own = 0; own <= 6; own += 3)
                            for (int other = 0; other <= 6; other += 2) {
                                ASSERT_EQ(cache.moves_needed(p, c, own, other),
                                          under.bound->moves_needed(p, target, c, own, other))
                                    << words << ", game " << game;
                                hits += round;
                            }
        }
    }
    EXPECT_GT(hits, 10000);
}

// Soundness on played games: under each condition, seeded random games of 16 half-moves from
// the game array, captures preferred (so units are reborn), with the final board as target:
// from every position on the way, each side needs no more moves than the game still made, and
// its surplus units can go.
TEST(ProofRebirth, NeverMoreThanARandomGameMade) {
    std::mt19937 rng(17);
    long checks = 0;
    for (const char* words : kConditions) {
        const UnderRules under(words);
        ASSERT_TRUE(under.bound) << words;
        for (int game = 0; game < 60; ++game) {
            // Captures first: a capture whenever one exists, in every other game.
            const std::vector<Position> line = random_game(under.start, 16, game % 2 == 0, rng);
            expect_within_the_game(*under.bound, line, std::string(words) + ", game " + std::to_string(game));
            if (HasFatalFailure()) return;
            checks += int(line.size());
        }
    }
    EXPECT_GT(checks, 20000);
}

// Calls visit(under, words, game, target, p) for every position p of 12 seeded random games
// of 14 half-moves under each of `conditions` (captures first in every other game, so that
// units are reborn; each game's final board as target). Stops at the first failure.
template <class Visit>
void for_each_played_position(const std::vector<const char*>& conditions, std::uint32_t seed, Visit visit) {
    std::mt19937 rng(seed);
    for (const char* words : conditions) {
        const UnderRules under(words);
        ASSERT_TRUE(under.bound) << words;
        for (int game = 0; game < 12; ++game) {
            const std::vector<Position> line = random_game(under.start, 14, game % 2 == 0, rng);
            const Board target = line.back().to_setup().board;
            for (const Position& at : line) {
                Position p = at;
                visit(under, words, game, target, p);
                if (::testing::Test::HasFailure()) return;
            }
        }
    }
}

// RebirthProgress on played games: under each condition, from every position of seeded
// random games, for every plain move of the side to move (no capture, promotion, castling or
// en passant), its bound is at most RebirthBound::moves_needed of the position after the move,
// for several numbers of moves left; and it says more than "no verdict" on many moves.
TEST(ProofRebirth, ProgressNeverAboveTheNeedAfter) {
    long checks = 0, said = 0;
    for_each_played_position(
        {std::begin(kConditions), std::end(kConditions)}, 57,
        [&](const UnderRules& under, const char* words, int game, const Board& target, Position& p) {
            const Color c = p.side_to_move();
            MoveList list;
            generate_legal(p, list);
            for (const auto& [own, other] : {std::pair{1, 0}, {2, 1}, {4, 3}, {7, 7}}) {
                const RebirthProgress progress(*under.bound, p, target, c, own, other);
                for (const Move& m : list) {
                    if (m.kind != MoveKind::Normal || !p.empty(m.to)) continue;
                    const int after_bound = progress.need_after(m.from, m.to);
                    UndoInfo u;
                    p.do_move(m, u);
                    const int need = under.bound->moves_needed(p, target, c, own - 1, other);
                    p.undo_move(m, u);
                    ASSERT_LE(after_bound, need) << words << ", game " << game;
                    ++checks;
                    if (after_bound > 0) ++said;
                }
            }
        });
    EXPECT_GT(checks, 50000);
    EXPECT_GT(said, checks / 4);
}

// What the proof-game search relies on to play only captures (solve_proof.cpp): under each
// condition, from every position of seeded random games, a legal move that takes nothing (no
// unit on its arrival square, no en passant) leaves the other side's units as they were, so
// that side's RebirthBound::moves_needed after the move is at least its value before, worked
// out with the moves the mover has left after it, for several numbers of moves left (equal but
// under Parrain, where the side to move answers one capture fewer after the move). A unit
// waiting for its Parrain rebirth is the side to move's (where its rebirth can remove an
// occupant, Parrain Assassin, the search does not use this).
TEST(ProofRebirth, AMoveThatTakesNothingLeavesTheOtherSidesNeed) {
    constexpr std::array<std::pair<int, int>, 4> kLeft{{{1, 0}, {2, 1}, {3, 3}, {6, 6}}};
    long checks = 0;
    std::vector<const char*> conditions(std::begin(kConditions), std::end(kConditions));
    conditions.push_back("Circe Parrain Assassin");  // where the search does not rely on it with a waiting unit
    for_each_played_position(
        conditions, 59, [&](const UnderRules& under, const char* words, int game, const Board& target, Position& p) {
            const Color mover = p.side_to_move(), other = ~mover;
            if (!p.parrain_piece().empty()) {
                EXPECT_EQ(p.parrain_piece().color, mover) << words << ", game " << game;
                // Its rebirth may remove an occupant: the search plays every move then.
                if (under.rules.occupied != Occupied::Relaxed && under.rules.occupied != Occupied::Strict) return;
            }
            std::array<int, kLeft.size()> before{};
            for (size_t i = 0; i < kLeft.size(); ++i)
                before[i] = under.bound->moves_needed(p, target, other, kLeft[i].first, kLeft[i].second);
            const Bitboard units = p.pieces(other);
            MoveList list;
            generate_legal(p, list);
            for (const Move& m : list) {
                if (!p.empty(m.to) || m.kind == MoveKind::EnPassant) continue;
                UndoInfo u;
                p.do_move(m, u);
                EXPECT_EQ(p.pieces(other), units) << words << ", game " << game;
                for (size_t i = 0; i < kLeft.size(); ++i)
                    EXPECT_GE(under.bound->moves_needed(p, target, other, kLeft[i].first, kLeft[i].second), before[i])
                        << words << ", game " << game;
                p.undo_move(m, u);
                if (::testing::Test::HasFailure()) return;
                ++checks;
            }
        });
    EXPECT_GT(checks, 50000);
}

}  // namespace
}  // namespace rebirth
