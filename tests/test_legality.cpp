// Orthodox legality analyzer (RULES.md section 5, Alsatian Circe: a capture is illegal if the
// position after it is illegal in orthodox chess; section 6: retro analysis reuses it).
// Every expected verdict is argued from the rules of chess in the comment above it (a proof
// sketch for "illegal", a way to reach the position for "not proved illegal"), never taken
// from the analyzer's output. Positions are given as FEN or as unit lists ("wBa1", S = knight).
#include <gtest/gtest.h>

#include "test_util.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "rebirth/legality.h"
#include "rebirth/legality_proof.h"
#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/position.h"
#include "rebirth/setup.h"

using namespace rebirth;

namespace {

using rebirth::test::diagram;

LegalityVerdict analyze(const Setup& s) {
    return analyze_orthodox_legality(s.board, s.side_to_move, s.castling, s.ep_square);
}

LegalityVerdict analyze_fen(const char* fen) { return analyze(parse_fen(fen)); }

testing::AssertionResult not_proved_illegal(const LegalityVerdict& v) {
    if (!v.illegal) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "reported illegal: " << v.reason;
}

// Illegal, and the reason mentions `fragment` (so the intended rule fired).
testing::AssertionResult illegal_with(const LegalityVerdict& v, std::string_view fragment) {
    if (!v.illegal) return testing::AssertionFailure() << "not reported illegal";
    if (v.reason.find(fragment) == std::string::npos)
        return testing::AssertionFailure() << "reason \"" << v.reason << "\" lacks \"" << fragment << "\"";
    return testing::AssertionSuccess();
}

}  // namespace

// Positions from real games and the standard perft positions.

// The game array is where every game starts.
TEST(LegalityGames, InitialPosition) {
    EXPECT_TRUE(not_proved_illegal(analyze_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")));
}

// 1.e4: the FEN's en passant square e3 follows the double step just played.
TEST(LegalityGames, AfterOneEFour) {
    EXPECT_TRUE(not_proved_illegal(analyze_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")));
}

// 1.e4 Nf6 2.e5 Nd5 3.Nc3 Nxc3 4.dxc3: a pawn changed file by capturing the knight on c3.
TEST(LegalityGames, AfterPawnRecapture) {
    EXPECT_TRUE(not_proved_illegal(analyze_fen("rnbqkb1r/pppppppp/8/4P3/8/2P5/PPP2PPP/R1BQKBNR b KQkq - 0 4")));
}

// Scholar's mate 1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7#: Black to move in check from Qf7, which
// came from h5 over the empty g6.
TEST(LegalityGames, ScholarsMate) {
    EXPECT_TRUE(not_proved_illegal(analyze_fen("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4")));
}

// Kiwipete (perft position 2): all 32 units are on the board and every pawn stands on its own
// file (White d5 e4, Black b4 e6 g6 h3 advanced straight, no pawn passed another), so the
// position needs no capture; the pieces reach their squares through the opened lines
// (Bc8-b7-a6, Bf8-g7, Bc1-d2, Bf1-e2, Qd1-e2-f3, Qd8-e7 ...). Reachable.
TEST(LegalityGames, Kiwipete) {
    EXPECT_TRUE(
        not_proved_illegal(analyze_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")));
}

// Position 3: every pawn on its own file (Black's c7 unmoved, d6 from d7, f4 from f7; White's
// e2 g2 unmoved, b5 from b2), most units captured by pieces: reachable.
TEST(LegalityGames, PerftPosition3) {
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1")));
}

// Position 5: White's d-pawn went straight to d7 (its file), Black's c-pawn to c6; the
// knight f2 and bishop e7 stand where their own moves lead; two units per side are missing.
TEST(LegalityGames, PerftPosition5) {
    EXPECT_TRUE(not_proved_illegal(analyze_fen("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8")));
}

// Position 6: a symmetrical Italian-game position after 9 moves each; all 16 units per side
// remain and every pawn is on its own file.
TEST(LegalityGames, PerftPosition6) {
    EXPECT_TRUE(
        not_proved_illegal(analyze_fen("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10")));
}

// Position 4 is a constructed test position and cannot arise in a game. Black's pawns b7 c7
// d7 f7 g7 h7 stand on their initial squares, so they never moved; the black pawn on b2 is
// therefore the a- or e-pawn and changed file, which takes a capture, yet all 16 white units
// are on the board (White: 8 pawns, K Q 2R 2B 2S). (White also fails: pawns a2 d2 g2 h2 never
// moved, so a7 b5 c4 e4 come from b2 c2 e2 f2 and need at least 1+1+2+1 = 5 captures, but
// Black has lost a single unit.) The mirrored version is the same position colour-reversed.
TEST(LegalityGames, PerftPosition4IsIllegal) {
    EXPECT_TRUE(
        illegal_with(analyze_fen("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"), "captures"));
    EXPECT_TRUE(
        illegal_with(analyze_fen("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"), "captures"));
}

// RULES.md section 5: Zeller, feenschach 1980, h#2 1.Kb7 Ba1 2.Ka8 b7#.
// A board consistent with the solution: White Kh3 Sc6 Bf6 Pb6, Black Kc8, Black to move
// (help-play starts with Black). Sc6 guards a7 and b8, so after 2...b7# only 3.Kxb7 could
// escape; under Alsatian Circe it would reborn the pawn on b2 next to the bishop on a1.
// Each position along the solution is reachable: White has lost 12 units and Black 15,
// the b-pawn advanced straight up its file, the bishop is the original c1 bishop.
TEST(LegalityZeller, SolutionPositionsAreNotProvedIllegal) {
    EXPECT_TRUE(not_proved_illegal(analyze(diagram({"wKh3", "wSc6", "wBf6", "wPb6", "bKc8"}, BLACK))));
    EXPECT_TRUE(not_proved_illegal(analyze(diagram({"wKh3", "wSc6", "wBf6", "wPb6", "bKb7"}, WHITE))));  // 1.Kb7
    EXPECT_TRUE(not_proved_illegal(analyze(diagram({"wKh3", "wSc6", "wBa1", "wPb6", "bKb7"}, BLACK))));  // 1...Ba1
    EXPECT_TRUE(not_proved_illegal(analyze(diagram({"wKh3", "wSc6", "wBa1", "wPb6", "bKa8"}, WHITE))));  // 2.Ka8
    // 2...b7#: Black is in check from the pawn that just stepped from b6.
    EXPECT_TRUE(not_proved_illegal(analyze(diagram({"wKh3", "wSc6", "wBa1", "wPb7", "bKa8"}, BLACK))));
    // 3.Kxb7 in orthodox chess (no rebirth) is an ordinary capture.
    EXPECT_TRUE(not_proved_illegal(analyze(diagram({"wKh3", "wSc6", "wBa1", "bKb7"}, WHITE))));
}

// After 3.Kxb7[+wPb2]: a white pawn on b2 never moved (pawns only advance and start on the
// second rank), so b2 was occupied the whole game; a bishop reaches a1 only through b2 (a1's
// only diagonal neighbour), and no bishop starts on a1: the position is illegal.
TEST(LegalityZeller, RebirthOnB2BehindBishopA1IsIllegal) {
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKh3", "wSc6", "wBa1", "wPb2", "bKb7"}, WHITE)), "bishop on a1"));
}

// Rule 1: pawns on the first or last rank.

// Pawns start on the second rank, move only forward and promote on reaching the last rank.
TEST(LegalityPawnRanks, PawnOnFirstOrLastRank) {
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKe1", "bKe8", "wPh1"}, WHITE)), "white pawn on h1"));
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKe1", "bKe8", "wPa8"}, WHITE)), "white pawn on a8"));
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKe1", "bKe8", "bPc1"}, WHITE)), "black pawn on c1"));
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKe1", "bKe8", "bPd8"}, WHITE)), "black pawn on d8"));
}

// Rule 2: kings and checks.

// Each side has exactly one king in every game position (kings are never captured).
TEST(LegalityKings, KingCount) {
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKe1"}, WHITE)), "black has 0 kings"));
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKe1", "wKe3", "bKe8"}, WHITE)), "white has 2 kings"));
}

// The side that just moved may not leave its king in check.
TEST(LegalityKings, SideNotToMoveInCheck) {
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKg1", "wRe1", "bKe8"}, WHITE)), "black king on e8 is in check"));
    // Adjacent kings attack each other, so the side not to move is in check.
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKe4", "bKe5"}, BLACK)), "in check"));
    // The same rook check with Black to move: White's Re1 (from e.g. d1) just gave it.
    EXPECT_TRUE(not_proved_illegal(analyze(diagram({"wKg1", "wRe1", "bKe8"}, BLACK))));
}

// A fairy unit's attack counts too: the black grasshopper on e4 hops over e2 to e1.
TEST(LegalityKings, SideNotToMoveInCheckFromFairy) {
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKe1", "wPe2", "bKe8", "bGe4"}, BLACK)), "white king on e1"));
}

// One move adds at most one checking unit directly (the moved or promoted unit) and opens at
// most two lines (en passant empties two squares, but no three checks arise): never 3 checks.
TEST(LegalityChecks, ThreeCheckers) {
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKg1", "wRe1", "wRa5", "wSd3", "bKe5"}, BLACK)), "3 units check"));
}

// A check by a unit that did not move is a discovered check along a line, so only bishops,
// rooks and queens give it. Knights and pawns check only when they just moved (or were just
// promoted), and one move moves one unit: two knights, two pawns, or pawn + knight never check
// together.
TEST(LegalityChecks, TwoKnights) {
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKg1", "wSd6", "wSf6", "bKe8"}, BLACK)), "no last move"));
}

TEST(LegalityChecks, TwoPawns) {
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKg1", "wPd4", "wPf4", "bKe5"}, BLACK)), "no last move"));
}

TEST(LegalityChecks, PawnAndKnight) {
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKg1", "wPd4", "wSc6", "bKe5"}, BLACK)), "no last move"));
}

// Bc3 and Bg3 both check e5. One was discovered through the departure square of the other,
// which moved along a diagonal from one diagonal through e5 onto the other: two diagonals
// through e5 meet only at e5, so that is impossible. Neither stands on the 8th rank, so
// neither was just promoted. (White's second dark bishop is a promotion: no white pawn is left.)
TEST(LegalityChecks, TwoBishops) {
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKg1", "wBc3", "wBg3", "bKe5"}, BLACK)), "no last move"));
}

// Re1 and Ra5 both check e5. The rook that moved left a square of the other's line (rank 5
// between a5 and e5, or the e-file between e1 and e5) along its own rank or file: from rank 5
// to e1, or from the e-file to a5, is not a rook move. No promotion (no rook on the 8th rank),
// no castling (a castled rook stands on f1/d1).
TEST(LegalityChecks, TwoRooksWithoutPromotion) {
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKg1", "wRe1", "wRa5", "bKe5"}, BLACK)), "no last move"));
}

// Same idea with one rook on the 8th rank but out of reach: Re8 and Ra5 check e5; a promotion
// on e8 came from d7, e7 or f7, none of them on rank 5 between a5 and e5; Ra5 came along the
// a-file or rank 5, never from the e-file.
TEST(LegalityChecks, TwoRooksPromotionSquareOffLine) {
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKg1", "wRe8", "wRa5", "bKe5"}, BLACK)), "no last move"));
}

// Legal double check with two rooks: 1.exd8=R++ (pawn e7 captured on d8 and promoted to a rook
// checking along rank 8, and the e-file from Re1 opened).
TEST(LegalityChecks, TwoRooksByCapturePromotion) {
    EXPECT_TRUE(not_proved_illegal(analyze(diagram({"wKg1", "wRe1", "wRd8", "bKe8"}, BLACK))));
}

// Legal double check pawn + rook: e4xd5+ checks e6 with the pawn and opens the e-file for Re1.
TEST(LegalityChecks, PawnCaptureDiscoversRook) {
    EXPECT_TRUE(not_proved_illegal(analyze(diagram({"wKg1", "wRe1", "wPd5", "bKe6"}, BLACK))));
}

// Legal double check by discovery only: Black Kd6 in check from Bh2 played ...e7-e5 (blocking),
// then d5xe6 e.p. emptied d5 (opening Rd1) and e5 (opening Bh2). e7 is empty as it must be.
TEST(LegalityChecks, EnPassantOpensTwoLines) {
    EXPECT_TRUE(not_proved_illegal(analyze(diagram({"wKa1", "wRd1", "wBh2", "wPe6", "bKd6"}, BLACK))));
}

// Legal double check knight + bishop: Sd7-f6+ checks e8 and opens the diagonal a4-e8.
TEST(LegalityChecks, KnightDiscoversBishop) {
    EXPECT_TRUE(not_proved_illegal(analyze(diagram({"wKg1", "wBa4", "wSf6", "bKe8"}, BLACK))));
}

// A pawn check is given only by the pawn that just moved; a white pawn on e2 never moved.
TEST(LegalityChecks, PawnCheckFromSecondRank) {
    EXPECT_TRUE(illegal_with(analyze(diagram({"wKh1", "wPe2", "bKd3"}, BLACK)), "no last move"));
}

// Sd6 checks e8, so it just moved (or was promoted, impossible off the 8th rank); it came from
// one of its jump squares b5 b7 c4 c8 e4 f5 f7, which would now be empty, but all are occupied.
// (Other units consistent: Bc8, b7, f7 unmoved; white pawns b5 c4 e4 f5 advanced on their files.)
TEST(LegalityChecks, KnightWithNoDepartureSquare) {
    EXPECT_TRUE(illegal_with(
        analyze(diagram({"wKg1", "wSd6", "wPb5", "wPc4", "wPe4", "wPf5", "bKe8", "bBc8", "bPb7", "bPf7"}, BLACK)),
        "no last move"));
}

// Qg7 touches Kh8, so its check cannot be discovered: the queen just moved to g7 from an
// adjacent square on a line (or further along one, passing an adjacent square), all of which
// are occupied (f6 g6 h6 f7 h7 f8 g8); g7 is no promotion square.
TEST(LegalityChecks, ContactCheckWithNoDepartureSquare) {
    EXPECT_TRUE(illegal_with(
        analyze(diagram({"wKb1", "wQg7", "wPf6", "wBh6", "bKh8", "bRf8", "bSg8", "bPf7", "bPg6", "bPh7"}, BLACK)),
        "no last move"));
}

// The en passant square e3 says the last move was e2-e4: that can give the pawn's own check
// (Kd5) but cannot open rank 8 for Ra8.
TEST(LegalityChecks, CheckAfterKnownDoubleStep) {
    rebirth::Setup pawn_check = diagram({"wKg1", "wPe4", "bKd5"}, BLACK);
    pawn_check.ep_square = SQ_E3;
    EXPECT_TRUE(not_proved_illegal(analyze(pawn_check)));
    rebirth::Setup rook_check = diagram({"wKg1", "wRa8", "wPe4", "bKe8"}, BLACK);
    rook_check.ep_square = SQ_E3;
    EXPECT_TRUE(illegal_with(analyze(rook_check), "no last move"));
    // Without the en passant information the rook may just have arrived from a1.
    rook_check.ep_square = SQ_NONE;
    EXPECT_TRUE(not_proved_illegal(analyze(rook_check)));
}

// Rule 3: material.

// Each side starts with 16 units and 8 pawns and never gains units.
TEST(LegalityMaterial, TooManyUnitsOrPawns) {
    EXPECT_TRUE(
        illegal_with(analyze_fen("rnbqkbnr/pppppppp/8/8/4N3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), "white has 17 units"));
    EXPECT_TRUE(illegal_with(analyze_fen("4k3/8/8/8/4P3/8/PPPPPPPP/4K3 w - - 0 1"), "white has 9 pawns"));
}

// Three queens: one may be original, the other two are promoted pawns, but only the h-pawn
// is missing.
TEST(LegalityMaterial, ThreeQueensSevenPawns) {
    EXPECT_TRUE(illegal_with(
        analyze(diagram(
            {"wKe1", "wQd1", "wQd4", "wQd5", "wPa2", "wPb2", "wPc2", "wPd2", "wPe2", "wPf2", "wPg2", "bKe8"}, WHITE)),
        "promoted"));
}

// Two light-squared bishops (f1, d3): the second is promoted, but all 8 pawns are present.
// With the h-pawn missing it is reachable: h7xg8=B (g8 is light), Black having lost 15 units.
TEST(LegalityMaterial, SecondLightBishop) {
    EXPECT_TRUE(illegal_with(
        analyze(diagram(
            {"wKe1", "wBf1", "wBd3", "wPa3", "wPb3", "wPc3", "wPd4", "wPe4", "wPf3", "wPg3", "wPh3", "bKe8"}, WHITE)),
        "promoted"));
    EXPECT_TRUE(not_proved_illegal(analyze(
        diagram({"wKe1", "wBf1", "wBd3", "wPa3", "wPb3", "wPc3", "wPd4", "wPe4", "wPf3", "wPg3", "bKe8"}, WHITE))));
}

// A fairy unit can only be a promoted pawn: impossible with 8 pawns, fine with 7.
TEST(LegalityMaterial, FairyUnitIsPromoted) {
    EXPECT_TRUE(illegal_with(
        analyze(
            diagram({"wKe1", "wGd5", "wPa3", "wPb3", "wPc3", "wPd4", "wPe4", "wPf3", "wPg3", "wPh3", "bKe8"}, WHITE)),
        "promoted"));
    EXPECT_TRUE(not_proved_illegal(
        analyze(diagram({"wKe1", "wGd5", "wPa3", "wPb3", "wPc3", "wPd4", "wPe4", "wPf3", "wPg3", "bKe8"}, WHITE))));
}

// Rule 4: pawn structure against missing opposing units.

// White pawns a2 b2 c2 d2 f2 g2 h2 never moved, so the pawn on d3 is the e-pawn, which
// changed file by a capture; but all 16 black units are on the board.
TEST(LegalityPawnStructure, FileChangeWithoutCapture) {
    EXPECT_TRUE(illegal_with(analyze_fen("rnbqkbnr/pppppppp/8/8/8/3P4/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), "captures"));
}

// a2 d2 e2 f2 g2 h2 never moved; the a3 and a4 pawns are the b- and c-pawns. a3 is one rank
// from the second rank, so it came from b2 (1 capture); a4 then came from c2 (2 captures):
// 3 captures, but Black (14 units) lost only 2. With ...e7-e6 played and Bf8 also gone
// (13 units) it is reachable: Bf8-a3 is captured by b2xa3, the knights by c2xb3 and b3xa4.
TEST(LegalityPawnStructure, TripledPawnsNeedCaptures) {
    EXPECT_TRUE(illegal_with(analyze_fen("r1bqkb1r/pppppppp/8/8/P7/P7/P2PPPPP/RNBQKBNR w KQkq - 0 1"), "captures"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("r1bqk2r/pppp1ppp/4p3/8/P7/P7/P2PPPPP/RNBQKBNR w KQkq - 0 1")));
}

// Pawns of the two sides never pass each other on a file. The white pawn on a3 came straight
// from a2 (b2 still holds its pawn, so no capture led onto the a-file), so the black pawn on
// a2, below it, came onto the a-file by a capture behind it (b3xa2): from a7 (b7 to h7 still
// hold their pawns) that is a7-a4xb3 and b3xa2, two captures, but White (15 units) lost one.
// With both white knights gone instead, `rebirth legal` finds a game of 56 half-moves (the
// knights are taken on b3 and a2). And with b2 empty, a3 may be the b-pawn (b2xa3 after the
// black pawn passed a3, the white a-pawn having left a2 by a2xb3 and been taken): then the
// black pawn came straight down, and one white unit lost is enough.
TEST(LegalityPawnStructure, OpposingPawnsNeverPassOnAFile) {
    EXPECT_TRUE(illegal_with(analyze_fen("4k3/1ppppppp/8/8/8/P7/pPPPPPPP/RNBQKBN1 w - - 0 1"), "need 2 captures"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("4k3/1ppppppp/8/8/8/P7/pPPPPPPP/R1BQKB1R w - - 0 1")));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("4k3/1ppppppp/8/8/8/P7/p1PPPPPP/RNBQKBNR w - - 0 1")));
}

// A unit shut in on its game-array square that is no longer there was taken there. The
// bishop of f1 never left (e2 and g2 never moved) and f1 is empty, so it was taken on f1, by
// a piece: a black pawn takes onto f1 only from e2 or g2. The black pawn on d3 came from e7
// (d7 still holds its pawn) with a capture, but White lost nothing else. With the d-pawn gone
// too, `rebirth legal` finds a game of 22 half-moves (...e5xd4, ...Sg3xf1).
TEST(LegalityPawnStructure, UnitsTakenOnTheirShutHomeSquaresWereTakenByPieces) {
    EXPECT_TRUE(illegal_with(analyze_fen("rnbqkbnr/pppp1ppp/8/8/8/3p4/PPPPPPPP/RNBQK1NR w - - 0 1"),
                             "never where its pawns took"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("rnbqkbnr/pppp1ppp/8/8/8/3p4/PPP1PPPP/RNBQK1NR w - - 0 1")));
}

// A unit whose every way misses the squares where the pawns of the other side took was not
// taken by a pawn (Retractor's LG-172, "too many white captures due to cage"). The white pawn
// on b4 is the d-pawn (a2, b2 and c2 never moved), by d2xc3 and c3xb4; Black lost Ra8, Rh8 and
// Bf8, but the rooks never left the eighth rank, b7, e7 and h7 (a7, c7, d7, f7 and g7 never
// moved, and b6, e6 and h6 hold the pawns that stepped from b7, e7 and h7), and White's pawns
// took nowhere above the fifth rank: one black unit for two captures. With the h-pawn on h5
// instead the h8 rook gets out by h6, and `rebirth legal` finds a game of 47 half-moves
// (...Rh8-h6-f6-f4-b4, c3xb4).
TEST(LegalityPawnStructure, UnitsThatNeverReachThePawnsCapturesWereTakenByPieces) {
    EXPECT_TRUE(illegal_with(analyze_fen("1nbqk1n1/p1pp1pp1/1p2p2p/4P3/1P6/3N1N1P/PPP2PP1/R1B1KB1R b - - 0 1"),
                             "2 of them never where its pawns took"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("1nbqk1n1/p1pp1pp1/1p2p3/4P2p/1P6/3N1N1P/PPP2PP1/R1B1KB1R b - - 0 1")));
}

// A king never steps onto a square that a unit which never moved attacks. The black king on
// h2 came through g1, h1, g3 or h3 (g2 never moved); g1 and h1 are reached only through f1,
// f2, g2 (units that never moved: Bf1 is shut in by e2 and g2) or h2 itself, and the pawns
// on f2 and g2 attack g3 and h3. Without the g-pawn `rebirth legal` finds a game of 72
// half-moves (the black king walks in through g2 and h3).
TEST(LegalityWalls, KingNeverCrossesSquaresThatUnmovedUnitsAttack) {
    EXPECT_TRUE(illegal_with(analyze_fen("8/8/8/8/8/8/4PPPk/4KB2 w - - 0 1"), "black king on h2"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/8/8/8/8/8/4PP1k/4KB2 w - - 0 1")));
}

// Two pawns on a file never pass each other: one of them came onto the file by a capture
// after the other had gone by (Retractor's label LG-040, too many captures). The white pawn
// on h5 and the black one on h4 each came from their own h-pawn's home (no other is free),
// so one of them left the h-file and came back: two captures. White took only Bc8, and on
// c8 (shut in by b7 and d7) where no pawn takes; Black took Sb1 and Bc1, the latter on c1
// (shut in by b2 and d2): one pawn capture at most. With Sg1 gone too, Black can: h7-h6,
// h6xSg5 after White's h-pawn passed, then g5xSh4 behind it (a black knight takes Bc1 and
// goes home, a white knight takes Bc8 and is taken on g5 or h4).
TEST(LegalityPawnStructure, PawnsThatPassedOnAFileNeedCaptures) {
    EXPECT_TRUE(
        illegal_with(analyze_fen("rn1qkbnr/ppppppp1/8/7P/7p/8/PPPPPPP1/R2QKBNR b - - 0 1"), "passed each other"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("rn1qkbnr/ppppppp1/8/7P/7p/8/PPPPPPP1/R2QKB1R b - - 0 1")));
}

// On a file where no pawn stands, some capture started or landed: its white pawn left it by
// a capture, was taken on it, or promoted on it once the black pawn had left it by a capture
// or been taken on it. janko.at's duplex record JR-D-001 (Ba8 Ba7 Kb8 b3 b2 c2 against
// Ba1 Ba2 Kb1 b6 b7 c7): each side's bishops were promoted on a8 and b8 (a1 and b1), so two
// pawns each came to the a-file: with b3 (b6) from the a-pawn, 9 captures of pawns a side at
// least, by the d- and e-pawns, which touch files a to e only. Files f, g and h, without
// pawns, need two captures more: 20, and with White's king taking a knight on b8 as the last
// move, the sides have lost 10 and 9 units (19): illegal. With the king's step from c8 (10
// and 10) the count fits; so with Black's mirror image.
TEST(LegalityPawnStructure, FilesWithoutPawnsNeedCaptures) {
    EXPECT_TRUE(illegal_with(analyze_fen("BnK5/Bpp5/1p6/8/8/1P6/bPP5/bk6 w - - 0 1"), "no pawn stands"));
    EXPECT_TRUE(illegal_with(analyze_fen("BK6/Bpp5/1p6/8/8/1P6/bPP5/bNk5 b - - 0 1"), "no pawn stands"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("B1K5/Bpp5/1p6/8/8/1P6/bPP5/bk6 w - - 0 1")));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("BK6/Bpp5/1p6/8/8/1P6/bPP5/b1k5 b - - 0 1")));
}

// The count of the files without pawns sets apart the captures that touch none of them: a
// piece's capture of an original unit that only a piece can have taken, off those files.
// janko.at's duplex record JR-D-004 (Ka8 Ra6 a2 a3 b6 b7 c7 d7 against Kb5 a7 b4 b3 c2 d2)
// with c3xNb4 (or xB, xQ) taken back: Black's b6 came from a7, a3 from e7 (4 captures), a2
// from f7 (5), and White's c3 from b2, b3 from a2, a7 from e2 (4): 16 pawn captures, files
// e and f touched; g and h need one more. Bc8, shut in by b7 and d7, was taken on c8 by a
// piece: that capture touches no file without pawns, and the sides lost 10 and 7 units
// (17): 16 + 1 + 1 is too many. With Kc4-b5 instead (Black lost 8, b3 or b4 unmoved) the
// count fits.
TEST(LegalityPawnStructure, FilesWithoutPawnsLeaveOutUnitsTakenByPiecesElsewhere) {
    for (const char* fen :
         {"k7/Pppp4/rp6/1K6/1n6/pPP5/p1PP4/8 w - - 0 1", "k7/Pppp4/rp6/1K6/1b6/pPP5/p1PP4/8 w - - 0 1",
          "k7/Pppp4/rp6/1K6/1q6/pPP5/p1PP4/8 w - - 0 1"})
        EXPECT_TRUE(illegal_with(analyze_fen(fen), "no pawn stands")) << fen;
    EXPECT_TRUE(not_proved_illegal(analyze_fen("k7/Pppp4/rp6/8/1PK5/pP6/p1PP4/8 w - - 0 1")));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("k7/Pppp4/rp6/1K6/1P6/pP6/p1PP4/8 b - - 0 1")));
}

// Pawns that passed each other on a file count in the files without pawns: one of each pair
// came onto the file by a capture. janko.at's duplex record JR-D-014 (Kg5 Bh4 e2 f2 g3 g6 h6
// h7 against Kh8 d7 e7 g7 f5 h5 h2) with g2-g3 taken back: White lost 8 units, Black 9. Bf8,
// shut in by e7 and g7, was taken at home by a piece, and Bf1, shut in by e2 and g2 (g2 held
// all game), by a piece too. White's g6, h6 and h7 need 8 pawn captures (the h-pawn straight
// up, the c- and d-pawns across to g and h), with Bf8's 9: all White made. So White's h-pawn
// went up its file, and Black's h5 and h2 came onto the h-file by captures from the g-file:
// with f5, 7 captures of Black's pawns (the h-pawn h->g->h, the c-pawn c->h; or f5 from c,
// and the f- and h-pawns to h). The a- and b-files, without pawns and touched by no way, need
// one capture more (Black's, White having none left), and Bf1's another: 9 captures of Black,
// who made 8. With Kf4-g5 taken back (g3 from g2 earlier, Bf1 free) it fits.
TEST(LegalityPawnStructure, FilesWithoutPawnsCountPawnsThatPassedEachOther) {
    EXPECT_TRUE(illegal_with(analyze_fen("7k/3pp1pP/6PP/5pKp/7B/8/4PPPp/8 w - - 0 1"), "no pawn stands"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("7k/3pp1pP/6PP/5p1p/5K1B/6P1/4PP1p/8 w - - 0 1")));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("7k/3pp1pP/6PP/5pKp/7B/6P1/4PP1p/8 b - - 0 1")));
}

// JR-D-004 with White's Kc4xb5 taken back (a black knight, bishop, queen or rook on b5): Black's
// pawns made all 10 captures (a7xb6, e7xd6xc5xb4xa3, f7xe6xd5xc4xb3xa2), so Black's gone g- and
// h-pawns made none and stayed on their files, each taken there or promoted past White's pawn
// of the file, which left it by a capture: files g and h need a white capture that takes a
// black pawn there or starts there, and one that takes a bishop serves one file only. White's
// a7 came a6-a7 (b6xa7 would cross b6, which Black's a-pawn took from a7 and held since) after
// e2xd3xc4xb5xa6, all on light squares; b4 did not come from a3 (Black's e-pawn's last move
// was b4xa3: the two would have swapped squares), so a2xb3 was White's other pawn capture, on a
// light square too. The dark-squared Bf8 is gone: a further capture. 5 + Bc8 (shut in, taken by
// a piece) + 2 = 8 captures, one more than the 7 units Black lost. With Kc4-b5 (8 lost) it fits.
TEST(LegalityPawnStructure, FilesWithoutPawnsAndBishopColoursNeedCapturesTogether) {
    for (const char* fen :
         {"k7/Pppp4/rp6/1n6/1PK5/pP6/p1PP4/8 w - - 0 1", "k7/Pppp4/rp6/1b6/1PK5/pP6/p1PP4/8 w - - 0 1",
          "k7/Pppp4/rp6/1q6/1PK5/pP6/p1PP4/8 w - - 0 1", "k7/Pppp4/rp6/1r6/1PK5/pP6/p1PP4/8 w - - 0 1"})
        EXPECT_TRUE(illegal_with(analyze_fen(fen), "files without pawns")) << fen;
    EXPECT_TRUE(not_proved_illegal(analyze_fen("k7/Pppp4/rp6/8/1PK5/pP6/p1PP4/8 w - - 0 1")));
}

// The pawn of a promoted unit passed the other side's pawns on the file it went down to its
// seventh rank, not only on the file of its promotion square. Retractor's duplex record JR-D-135
// (data/retro/retractor_lastmoves.jsonl: PxB=Q and PxB=Q, Black's h2xBg1=Q) with Black's
// e7xBd6 or e7xRd6 taken back: White lost both rooks, Bf1 and a pawn, Black the f8 bishop only.
// Black's b-pawn is on c6 (c7 and d7 never moved), its a- and h-pawns gave the second light
// bishop and queen. White's one capture brings no pawn past e7, f7 and g7, so the queen's pawn
// went straight up the h-file and the e-pawn was taken as a pawn, off every black pawn's way: by a
// piece. Black's h-pawn went down the h-file to h2 (g2 and f2 never moved) past White's, so it
// left it and came back: 2 captures, b7xc6 1, the a-pawn at least 1, the piece 1: 5 > 4. Taking
// h2xg1 as a pawn on the g-file (1 capture) it fitted. And JR-D-136 with White's e7xRf8=Q taken
// back once the order of the last moves proves the f8 bishop taken there by a piece
// (LegalityMarks::taken_home, RetroOrder.BishopOfF8TakenAtHomeBeforeJankoD136sE7xRf8; the hand
// proof in data/retro/hand-proofs/JR-D-136.md, second look, section 6): the bishop on e1 is
// promoted, Black's pawns need all 4 captures left them (b7 to e2, e7xd6, the h-pawn straight
// down), so the a-pawn made none and a piece took it on the a-file; White's pawns, with one
// capture left, cannot take the h-file detour, so Black's h-pawn passed White's straight one.
TEST(LegalityPawnStructure, PromotedPawnsPassedOnTheFileTheyWentDown) {
    for (const char* fen : {"4nQrQ/2pppppK/2pB4/8/8/PP6/b1PPkPP1/nN1brqqN b - - 0 1",
                            "4nQrQ/2pppppK/2pR4/8/8/PP6/b1PPkPP1/nN1brqqN b - - 0 1"})
        EXPECT_TRUE(illegal_with(analyze_fen(fen), "passed each other")) << fen;
    const rebirth::Setup before_rook = parse_fen("4nrQB/2ppPppK/3p4/8/8/5P2/PPPPkrP1/3bbqqN w - - 0 1");
    EXPECT_TRUE(not_proved_illegal(analyze(before_rook)));
    LegalityMarks taken;
    taken.taken_home = square_bb(SQ_F8);
    EXPECT_TRUE(
        illegal_with(analyze_orthodox_legality(before_rook.board, WHITE, 0, SQ_NONE, taken), "passed each other"));
}

// A pawn's captures keep its square's colour and a single step changes it: a way with as
// many captures as ranks takes only on its home's colour. janko.at's duplex record JR-D-016
// with h4-h3 taken back: White lost two knights and the f1 bishop (seven pawns and a third
// rook, one promotion), so Black took 3 times, all with the pawn now on h4 (f7, g7, h7 never
// moved; only the e-pawn gets there with 3 captures), e7xf6xg5xh4, all on dark squares: the
// light-squared bishop was taken nowhere. With Kd4-e3 taken back instead the pawn on h3 took
// on light squares (e7-e6, e6xf5, f5xg4, g4xh3): not proved illegal.
TEST(LegalityPawnStructure, BishopsAreTakenOnTheirColour) {
    EXPECT_TRUE(illegal_with(analyze_fen("8/5ppp/8/8/6Pp/3PkPP1/1PPR1RPr/2BQ1RK1 b - - 0 1"), "light-squared bishop"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/5ppp/8/8/3k2P1/3P1PPp/1PPR1RPr/2BQ1RK1 b - - 0 1")));
}

// Where a side's pawns need every capture it can have made, its pawns that are gone made none:
// each stayed on its file, and past a pawn of the other side that stood on that file all game
// it cannot have promoted, so it was taken there, by a piece where no pawn can have taken on
// that file. janko.at's duplex record JR-D-124 (lastmoves.jsonl: PxB and PxB), with Black's
// d7xQc6 taken back: Black's pawns need all 6 captures White's losses allow (a7-a5, c7xb6,
// f7xe6xd5xc4xb3xa2), so the gone g- and h-pawns made none; White's g3 (straight from g2) and
// h2 bar their files and no white pawn takes on g or h, so pieces took them, and White's pawns
// need 7 of the 8 units Black lost where 6 are left them. With c7xBb6 taken back the count
// fits. JR-D-130 (PxP and PxP) with Black's b3xQa2 taken back needs it twice: Black's gone g-
// and h-pawns leave White's pawns all the captures left them, so White's gone a-pawn made none
// either, behind Black's a7, and no black pawn takes on the a-file: one capture too many for
// Black's pawns. With b3xPa2 (the a-pawn taken) it fits.
TEST(LegalityPawnStructure, PawnsThatMadeNoCaptureAreTakenOnTheirFiles) {
    EXPECT_TRUE(illegal_with(analyze_fen("8/Pp1pp3/kpQ5/p7/P7/KPP3P1/pP2P2P/8 b - - 0 1"), "made no capture"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/Ppp1p3/kBp5/p7/P7/KPP3P1/pP2P2P/8 b - - 0 1")));
    EXPECT_TRUE(illegal_with(analyze_fen("8/ppp3P1/2pp4/8/4P3/1p5P/Q1PPPkPK/4bq2 b - - 0 1"), "made no capture"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/ppp3P1/2pp4/8/4P3/1p5P/P1PPPkPK/4bq2 b - - 0 1")));
}

// A square held all game: where a side's gone pawns made no capture and the other side's pawns
// made exactly the captures left them, a gone pawn on a file where the other side's pawn stood all
// game was taken on its file by a pawn, and when every such capture lands on its home square,
// where that pawn now stands, the square was held all game (data/retro/hand-proofs/JR-D-130.md).
// JR-D-130 (lastmoves.jsonl: PxP and PxP, Black's b3xPa2) with Black's e7xBd6 taken back: White's
// g7 came b2xc3xd4xe5xf6xg7, the last capture taking Black's g-pawn unmoved on g7 (it made no
// capture and could not pass White's g2), so g7 was held all game: the f8 bishop, behind e7 and
// g7, never moved, the e1 bishop was promoted, and Black's pawns need 8 captures where 6 are
// left them. With the published b3xPa2 or White's f6xPg7 taken back: not proved illegal.
TEST(LegalityPawnStructure, SquaresHeldAllGameByAPawnAndItsTaker) {
    EXPECT_TRUE(illegal_with(analyze_fen("8/ppp1p1P1/2pB4/8/4P3/7P/p1PPPkPK/4bq2 b - - 0 1"), "g7 held all game"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/ppp3P1/2pp4/8/4P3/1p5P/P1PPPkPK/4bq2 b - - 0 1")));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/ppp3p1/2pp1P2/8/4P3/7P/p1PPPkPK/4bq2 w - - 0 1")));
}

// A shut promotion square (the last step of analyze_orthodox_legality): a piece V on its
// side's last rank whose every entry holds a pawn of the other side on its third rank, come
// from its second rank; when a promotion onto V's square from r, left by a unit through x,
// needs each of those pawns to have left r or x first, V came later, by a promotion. So either
// V is promoted there, or no unit standing elsewhere was promoted there from such an r.
// janko.at's duplex record JR-D-151 (Lois & Osorio; lastmoves.jsonl: PxR=B for both sides;
// data/retro/hand-proofs/JR-D-151.md). Its e8 knight's entries are d6 (from e7: c7 and d7
// never moved) and f6 (from f7, e7 being d6's), its a8 knight's b6 (from a7 or b7): a light
// bishop promoted by e7-e8 leaves by f7 (d7 never moved), one promoted by a7-a8 by b7, so
// after either the knight there came by promotion too. With Black's a2xQb1=B taken back:
// White has 6 pawns, the g8 bishop promoted (Bf1 never left e2 and g2) and a second queen,
// Black lost 4 units; the cases of the hand proof (b7 from the a-, d- or f-pawn) each need 5
// captures or a third promotion. With White's c6xNb7, c6xQb7 or c6xRb7 taken back: White
// took 3, c6 needs 1 to 3 of them, and Bg8's promotion the rest or more (the hand proof's
// list). The published a2xRb1=B and h7xRg8=B taken back, and the diagram: not proved illegal.
TEST(LegalityPawnStructure, ShutPromotionSquaresComeByPromotion) {
    const char* why = "the piece there would have come by promotion too";
    EXPECT_TRUE(illegal_with(analyze_fen("NrbbNQBk/1PppBKp1/1p1p1pp1/8/8/8/pPP1P1PP/1Q6 b - - 0 1"), why));
    for (const char* b7 : {"n", "q", "r"})
        EXPECT_TRUE(illegal_with(
            analyze_fen(("NrbbNQBk/1" + std::string(b7) + "ppBKp1/1pPp1pp1/8/8/8/1PP1P1PP/1b6 w - - 0 1").c_str()),
            why))
            << b7;
    EXPECT_TRUE(not_proved_illegal(analyze_fen("NrbbNQBk/1PppBKp1/1p1p1pp1/8/8/8/pPP1P1PP/1R6 b - - 0 1")));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("NrbbNQrk/1PppBKpP/1p1p1pp1/8/8/8/1PP1P1P1/1b6 w - - 0 1")));
    for (const char* side : {"w", "b"})
        EXPECT_TRUE(not_proved_illegal(
            analyze_fen(("NrbbNQBk/1PppBKp1/1p1p1pp1/8/8/8/1PP1P1PP/1b6 " + std::string(side) + " - - 0 1").c_str())));
}

// The same mechanism in a game (data/retro/hand-proofs/JR-D-151.md): a light bishop promoted on
// e8 leaves by f7, then a knight is promoted on e8 behind black pawns on d6 and f6. No position
// of it is proved illegal; after 15.e8=N the knight is the piece promoted there.
TEST(LegalityPawnStructure, ShutPromotionSquareInAGame) {
    Position pos(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    const std::vector<std::string> game{"Nc3",   "Nh6", "Nb5", "Ng8",  "Nd6+", "exd6", "e4",  "Ke7",
                                        "e5",    "Ke6", "d4",  "Kf5",  "e6",   "Kg6",  "e7",  "f6",
                                        "e8=B+", "Kf5", "Bf7", "Qe7+", "Be3",  "Qe6",  "d5",  "Ke4",
                                        "dxe6",  "Kf5", "e7",  "Ke4",  "e8=N", "Nc6",  "Bg6+"};
    MoveList list;
    for (const std::string& san : game) {
        generate_legal(pos, list);
        const Move* played = nullptr;
        for (const Move& m : list)
            if (move_to_san(pos, m) == san) played = &m;
        ASSERT_NE(played, nullptr) << san << " in " << to_fen(pos.to_setup());
        UndoInfo undo;
        pos.do_move(*played, undo);
        EXPECT_TRUE(not_proved_illegal(analyze(pos.to_setup()))) << "after " << san << ": " << to_fen(pos.to_setup());
    }
    const rebirth::Setup end = pos.to_setup();
    EXPECT_TRUE(end.board[SQ_E8].walk == KNIGHT && end.board[SQ_E8].color == WHITE);
    EXPECT_TRUE(end.board[SQ_D6].walk == PAWN && end.board[SQ_F6].walk == PAWN && end.board[SQ_F6].color == BLACK);
}

// A pawn whose only possible home is as many files away as the ranks it advanced took on every
// square of the diagonal between, each time a unit of the other side that can have stood
// there (forced_captures_rule). janko.at's duplex record JR-D-078 (from Retractor's tests),
// Black's last move Bh2xXg1 taken back: Black has all sixteen units but the c8 bishop, so
// White made one capture; Black's pawn on c6 came from d7 by one capture, on light c6. With
// a knight on g1 White's lost units are the dark c1 bishop and the a- and h-pawns, which one
// capture brings neither to the c-file nor to a promotion (b7, h7 never moved, g7's pawn went
// straight to g6, and White's one capture took the light c8 bishop): illegal. With White's
// dark bishop on g1 (the published Bh2xBg1) a knight is gone, which can have stood on c6.
TEST(LegalityPawnStructure, ForcedPawnCapturesTookUnitsThatCanHaveStoodThere) {
    EXPECT_TRUE(illegal_with(analyze_fen("7n/ppp1pp1p/2p3p1/8/8/2PPPP2/1PRQqrPb/kBRNnrNK b - - 0 1"),
                             "took on every square of their only ways"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("7n/ppp1pp1p/2p3p1/8/8/2PPPP2/1PRQqrPb/kBRNnrBK b - - 0 1")));
    // The diagram itself and its other side's earlier position (Ba2xBb1 taken back) are legal.
    EXPECT_TRUE(not_proved_illegal(analyze_fen("7n/ppp1pp1p/2p3p1/8/8/2PPPP2/1PRQqrP1/kBRNnrbK w - - 0 1")));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("7n/ppp1pp1p/2p3p1/8/8/2PPPP2/BPRQqrP1/kbRNnrbK w - - 0 1")));
    // Without Black's h8 knight White made two captures: its a-pawn can have come to the
    // c-file and been taken on c6, so the knight on g1 is no longer refuted by this rule.
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/ppp1pp1p/2p3p1/8/8/2PPPP2/1PRQqrPb/kBRNnrNK b - - 0 1")));
}

// Then the pawns of the other side made every capture but those of the pawns taken by
// pieces, and a game-array bishop that is gone, shut in nowhere, was taken by one of them on
// its colour. JR-D-124 with White's c2xQb3 taken back: Black's gone g- and h-pawns were taken
// by White's pieces, White's pawns made the 6 other captures (d2xc3, f2xe3xd4xc5xb6xa7), all
// on dark squares, and Black's light-squared bishop is gone: illegal, so with a knight or rook
// taken; with c2xBb3 (the bishop taken on b3) not.
TEST(LegalityPawnStructure, BishopsAreTakenOnTheirColourByThePawnsLeft) {
    for (const char* taken : {"q", "r", "n"})
        EXPECT_TRUE(illegal_with(
            analyze_fen(("8/Pp2p3/kpp5/p7/P7/K" + std::string(taken) + "P3P1/pPP1P2P/8 w - - 0 1").c_str()),
            "bishops that are gone"))
            << taken;
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/Pp2p3/kpp5/p7/P7/KbP3P1/pPP1P2P/8 w - - 0 1")));
}

// A pawn on its third rank made one move, from the second-rank square of the file its
// assignment gives it, and stood on one of the two squares all game: no pawn of the other
// side moved between them. janko.at's duplex record JR-D-148 (Keym; a helper's hand proof
// this session) with g7-g6 taken back: White's three rooks and seven pawns leave Black
// exactly four captures, all of pieces, among them the bishops c1 (dark) and f1 (light); the
// bishop on h1 was promoted (g2 never moved), by the d-pawn (e7-h7 never moved), which made
// all four captures, d7 to h2 with one step: both colours only with the step between
// captures, so its last move was g3xh2. White's h-pawn cannot have promoted past e7-h7 within
// White's seven captures: it is the pawn on g3, come by h2xg3, and h2/g3 were held all game,
// so no black pawn went from g3 to h2. With f2 a pawn that never moved (no king inside) the
// same. The published h2-h1=B stays.
TEST(LegalityPawnStructure, ThirdRankPawnsSealTheirSquaresForTheBishopsColours) {
    EXPECT_TRUE(illegal_with(analyze_fen("8/4pppp/8/8/8/1PPPkPP1/brPR1RP1/2KR1Qrb b - - 0 1"), "third rank"));
    EXPECT_TRUE(illegal_with(analyze_fen("8/4pppp/8/k7/8/1PPP1PP1/brPR1PP1/2KR1Qrb w - - 0 1"), "third rank"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/4pp1p/6p1/8/8/1PPPkPP1/brPR1RPp/2KR1Qr1 b - - 0 1")));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/4pp1p/6p1/8/8/1PPPkPP1/brPR1RP1/2KR1Qrb w - - 0 1")));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/4pp1p/6p1/8/8/1PPPkPP1/brPR1RP1/2KR1Qrb b - - 0 1")));
}

// The pawn of a promoted unit went up (down) the file of its promotion square: it passed
// every pawn of the other side on that file, which it cannot do either. Nobody took anything
// (16 units a side, Black's queen on a5 promoted): Black's h-pawn went straight down to h1
// (g1 and a capture are out of reach), and White's h-pawn left h2 up the h-file before it
// came by, straight too: they crossed. With Sb1 and Sg1 gone Black may have taken twice:
// h7-h6, h6xg5 once White's h-pawn has gone by, g5-g4, g4xh3 behind it, h3-h2-h1=Q. Not with
// Sb1 and Bc1 gone (this test said so until 2026-12-02): Bc1, shut in by b2 and d2, was taken
// at home by a piece, and Black's one pawn capture left cannot take its h-pawn round White's.
TEST(LegalityPawnStructure, PromotedUnitsPawnsPassedPawnsOnTheirFile) {
    EXPECT_TRUE(
        illegal_with(analyze_fen("rnbqkbnr/ppppppp1/8/q7/7P/8/PPPPPPP1/RNBQKBNR w - - 0 1"), "passed each other"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("rnbqkbnr/ppppppp1/8/q7/7P/8/PPPPPPP1/R1BQKB1R w - - 0 1")));
    EXPECT_TRUE(
        illegal_with(analyze_fen("rnbqkbnr/ppppppp1/8/q7/7P/8/PPPPPPP1/R2QKBNR w - - 0 1"), "passed each other"));
    // The last thing left of janko.at's JR-O-010 (Eriksson, Stella Polaris 1969; lastmoves.jsonl:
    // the tenth single move back is Nb5-c3+, no capture). Taking back Nb5xQc3 instead leaves
    // Black 11 units: the bishop on e6 is promoted (c8's, shut in by b7 and d7, was taken at
    // home, and by no pawn), Black's h4 came from g7 by the one capture White's 15 units
    // allow, so the promotion took nothing: the f-pawn went down to f1 past White's f4,
    // which came onto the f-file by a capture, and White's pawns then need 5 captures of
    // the 4 Black units a pawn can have taken. After the knight's plain move (Black 10 units,
    // 5 a pawn can have taken) they fit.
    // Retractor 2's check with its separate capture tracking refutes the same three
    // positions (queen, bishop or knight taken), measured while working.
    for (const char* taken : {"q", "b", "n"})
        EXPECT_TRUE(illegal_with(
            analyze_fen(
                ("8/1pppp2p/2k1b2R/1NP2rRr/BPQ2P1p/BP" + std::string(taken) + "1PN1K/1P4P1/8 w - - 0 1").c_str()),
            "passed each other"))
            << taken;
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/1pppp2p/2k1b2R/1NP2rRr/BPQ2P1p/BP2PN1K/1P4P1/8 w - - 0 1")));
}

// A pawn that made no capture by its side's count never left its file, and the other side's
// pawns did not pass it there either (janko.at's JR-D-139, lastmoves.jsonl: Black's last move
// was h2xQg1=R, not h2xNg1=R; data/retro/hand-proofs/JR-D-139.md, proof 4). With h2xNg1=R
// taken back, White's rook on b8 promoted there (the cage search's mark, given here): White
// has three knights, so the h-pawn promoted too. Black made 4 captures (White lost Q, R and
// both bishops), Bc1 taken at home by a piece (b2, d2 never moved), a7xb6 and f7xe6: one to
// spare, so Black's h-pawn, which off its file and back needs two, went straight down from
// h7 to h2. White's h-pawn got past it only off the h-file, and the g-file ends at g7: two
// captures, with c2xd3 and a7xb8 four, where White made 4 of which one took Bf8 at home, by
// a piece. With the queen on g1 instead (the published answer) no promotion is needed.
TEST(LegalityPawnStructure, PawnsWithNoCaptureToSpareBarTheOtherSidesWaysOnTheirFiles) {
    LegalityMarks marks;
    marks.promoted_here = square_bb(SQ_B8);
    const auto verdict = [&](const char* fen) {
        const rebirth::Setup s = parse_fen(fen);
        return analyze_orthodox_legality(s.board, s.side_to_move, s.castling, s.ep_square, marks);
    };
    EXPECT_TRUE(illegal_with(verdict("nRr1n3/1ppKp1p1/1p1pp3/8/8/3PP3/1P1PkPPp/3N1RNN b - - 0 1"), "need 4 captures"));
    EXPECT_TRUE(not_proved_illegal(verdict("nRr1n3/1ppKp1p1/1p1pp3/8/8/3PP3/1P1PkPPp/3N1RQN b - - 0 1")));
    // Black with a capture more to spare (White's rook on f1 gone too): the h-pawn may have gone
    // h7xg6, g6xh5 round White's, which went straight up.
    EXPECT_TRUE(not_proved_illegal(verdict("nRr1n3/1ppKp1p1/1p1pp3/8/8/3PP3/1P1PkPPp/3N2NN b - - 0 1")));
}

// janko.at's type D record JR-D-109 (W. Keym; lastmoves.jsonl): White's last move was a pawn
// step, not b2xc3. Taking back b2xQc3 leaves the black king on e1 with Ba2, Qa1 and white
// pawns b2, b3 (b3 came from a2 or c2 by a capture: b2 never moved), e2 to h2, Bf1 shut in.
// The king crossed the third rank, where b2 attacks a3 and c3, e2 d3, f2 e3, the pawn on b3
// was attacked from its home square until it stood there: no way in. The published answer's
// position (b2-b3 taken back) is not refuted.
TEST(LegalityWalls, KingNeverCrossesASquareAPawnTookOnFromItsHome) {
    EXPECT_TRUE(illegal_with(analyze_fen("8/8/8/8/P7/1PqP4/bPKRPPPP/q1N1kB2 w - - 0 1"), "black king on e1"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/8/8/8/P7/2PP4/bPKRPPPP/q1N1kB2 w - - 0 1")));
}

// janko.at's type B record JR-B-043 (J. Mortensen; lastmoves.jsonl): White's last move was
// h7xSg8=B, not h7xRg8=B. With a black rook taken back onto g8 next to Rh8, both rooks stand
// in g8, h8, h7, which a rook enters only from h6 (f8 holds Bf8, shut in by e7 and g7; g7
// never moved): but the pawn on h6 came from h7 (g7 never moved), so h7 or h6 was held all
// game. Only the rook of h8 was ever inside, and Black promotes on the first rank. With a
// knight on g8 instead `rebirth legal` finds a game of 60 half-moves.
TEST(LegalityWalls, APawnOnItsThirdRankSealsItsWayFromHome) {
    EXPECT_TRUE(illegal_with(analyze_fen("4nbrr/4pKpP/7p/5k2/8/8/8/8 w - - 0 1"), "black rooks"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("4nbnr/4pKpP/7p/5k2/8/8/8/8 w - - 0 1")));
}

// janko.at's type D record JR-D-148 (W. Keym; lastmoves.jsonl): White's last move was O-O-O,
// not e2xd3. With e2xQd3 taken back, Black has light bishops on a2 and h1: one may be Bc8,
// but the one on h1 never moved (g2 never moved), so it was promoted there, by a pawn that
// came down the h-file (h2 empty, g2 never moved), from d7 at the nearest (h7 still holds
// its pawn): 4 captures. White lost 4 units, one of them Bf1, taken on f1 (shut in by e2
// and g2) by a piece. The published answer's position (O-O-O taken back) is not refuted.
TEST(LegalityPawnStructure, AUnitNoHomeReachesWasPromotedWhereItCanHaveComeFrom) {
    EXPECT_TRUE(illegal_with(analyze_fen("8/4pp1p/6p1/8/8/1PPqkPP1/brPRPRP1/2KR1Qrb w - - 0 1"), "need 4 captures"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/4pp1p/6p1/8/8/1PPPkPP1/brPR1RP1/R3KQrb w Q - 0 1")));
}

// A sealed pair is closed to the other side's pawns too. janko.at's type D record JR-D-118
// (B. Schwarzkopf; lastmoves.jsonl): White's last move was f2-f3, not f2xg3. With f2xQg3
// taken back, the white pawn on f3 came from g2 (e2 and f2 never moved), so it stood on g2
// from the start until it took on f3, and no black pawn ever took f3xg2. Black's pawns on
// g5, g2 and h2 came from a7, b7, c7 or g7 (the other homes hold their pawns): g5 only from
// g7; from a7 none of the three (too many files for the ranks), from b7 only g2, by five
// captures ending f3xg2. So g2, h2 and g5 share c7 and g7. With f2-f3 taken back instead
// (the published answer) `rebirth legal` finds a game of 140 half-moves.
TEST(LegalityPawnStructure, NoPawnTakesAcrossASealedPair) {
    EXPECT_TRUE(illegal_with(analyze_fen("8/3ppp1p/7P/6pK/8/5Pqk/4PPpp/8 w - - 0 1"), "distinct black pawns"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/3ppp1p/7P/6pK/8/6Pk/4PPpp/8 w - - 0 1")));
}

// A pawn on its third rank seals the squares between it and the only square it can have come
// from (it stood there from the start, then on its square): not when it may have taken onto
// its square from elsewhere. This game (found by the random games below) ends with b2xBa3,
// after the rook went a1-a4 once a2xQb3 had cleared a2: the pawn on a3 came from b2.
TEST(LegalityWalls, APawnThatMayHaveTakenOntoItsSquareSealsNothing) {
    Position pos(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    for (const char* uci :
         {"g1f3", "c7c6", "f3h4", "a7a5", "g2g4", "a5a4", "h4f5", "g7g6", "f5h4", "e7e5", "e2e3", "g8f6", "g4g5",
          "h8g8", "g5f6", "d8b6", "d1h5", "b6b3", "a2b3", "f8b4", "a1a4", "g6h5", "a4a5", "b4a3", "b2a3"}) {
        MoveList list;
        generate_legal(pos, list);
        const std::string text(uci);
        const auto m = std::find_if(list.begin(), list.end(),
                                    [&](const Move& x) { return square_name(x.from) + square_name(x.to) == text; });
        ASSERT_NE(m, list.end()) << uci;
        UndoInfo undo;
        pos.do_move(*m, undo);
    }
    EXPECT_TRUE(not_proved_illegal(analyze(pos.to_setup())));
}

// janko.at's type D record JR-D-127 (J. Lois & R. Osorio; lastmoves.jsonl): White's last move
// was g6xNh7, not g6xBh7. After g6xBh7 is taken back, Black has light bishops on b1 and h7,
// both promoted (Bc8 never left c8: b7 and d7 never moved). A bishop promoted on d1, f1 or h1
// stays there (c2, e2, g2 never moved), so both promoted on b1, coming from a2 (c2 holds its
// pawn). A black pawn on a2 came there by a capture from b3 (the white pawn on a3 came
// straight from a2, b2 never having left), so each costs 3 captures from a7 or c7, 5 from e7,
// and the pawn still on a2 two more: 10 captures, but White lost only 8 units. With a knight
// on h7 (the published answer) one bishop is promoted: 5 captures.
TEST(LegalityPawnStructure, PromotedBishopsNeedTheirSquareColour) {
    EXPECT_TRUE(illegal_with(analyze_fen("6BK/1p1p1ppb/6Pp/8/8/P7/pPP1P1P1/kb6 w - - 0 1"), "need 10 captures"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("6BK/1p1p1ppn/6Pp/8/8/P7/pPP1P1P1/kb6 w - - 0 1")));
}

// A pawn on a3 made one move from a2 or b2, but both still hold pawns that never moved.
TEST(LegalityPawnStructure, PawnWithNoOrigin) {
    EXPECT_TRUE(illegal_with(analyze_fen("4k3/8/8/8/8/P7/PP6/4K3 w - - 0 1"), "distinct"));
}

// Rule 5: units that cannot have reached their squares.

// A white bishop on a1 is reachable only through b2 (see the Zeller test); without the pawn
// on b2 (it stands on b3) the bishop came along the long diagonal.
TEST(LegalityReach, BishopBehindPawn) {
    EXPECT_TRUE(illegal_with(analyze_fen("4k3/8/8/8/8/8/1P6/B3K3 w - - 0 1"), "white bishop on a1"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("4k3/8/8/8/8/1P6/8/B3K3 w - - 0 1")));
    // Black: h8 is entered only through g7, where Black's g-pawn never moved.
    EXPECT_TRUE(illegal_with(analyze_fen("4k2b/6p1/8/8/8/8/8/4K3 w - - 0 1"), "black bishop on h8"));
}

// Pawns b2 and d2 never moved, so the c1 bishop never left c1. The dark bishop on e3 is then
// a promoted one; with all 8 pawns present that is impossible. With the h-pawn missing it
// is reachable: h2-h8=B (dark square) and the bishop walks to e3.
TEST(LegalityReach, TrappedQueensideBishop) {
    EXPECT_TRUE(illegal_with(analyze_fen("4k3/8/8/8/4P3/4B3/PPPP1PPP/4K3 w - - 0 1"), "promoted"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("4k3/8/8/8/4P3/4B3/PPPP1PP1/4K3 w - - 0 1")));
}

// The castling right says Ke1 (and Ra1) never moved; f2 g2 h2 never moved either. So f1 g1 h1
// were closed off all game and only the h1 rook started there: two rooks on g1 and h1 are
// impossible (a promoted rook could not enter either). Without the castling right the king
// may have stepped away and let a rook (original a1 or promoted) in.
TEST(LegalityReach, RooksBehindUnmovedKingAndPawns) {
    EXPECT_TRUE(illegal_with(analyze_fen("4k3/8/8/8/8/8/5PPP/R3K1RR w Q - 0 1"), "rooks"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("4k3/8/8/8/8/8/5PPP/R3K1RR w - - 0 1")));
}

// Rh1 with Kg1 and unmoved g2 h2: the king walked e1-f1-g1, the rook never moved. Reachable.
TEST(LegalityReach, RookInCornerWithKing) {
    EXPECT_TRUE(not_proved_illegal(analyze_fen("4k3/8/8/8/8/8/6PP/6KR w - - 0 1")));
}

// A castling right means the king and that rook never moved, so they stand on e1 and a1/h1.
TEST(LegalityCastling, RightsNeedUnitsOnHomeSquares) {
    rebirth::Setup no_rook = parse_fen("rnbqkbnr/pppppppp/8/8/8/7P/PPPPPPP1/RNBQKBN1 w Qkq - 0 1");
    no_rook.castling |= square_bb(SQ_H1);  // claims the h1 rook's right
    EXPECT_TRUE(illegal_with(analyze(no_rook), "castling right on h1"));
    rebirth::Setup moved_king = diagram({"wKe2", "wRa1", "bKe8"}, WHITE);
    moved_king.castling = square_bb(SQ_E1) | square_bb(SQ_A1);
    EXPECT_TRUE(illegal_with(analyze(moved_king), "castling right on e1"));
    // 1.h4 Nf6 2.Rh2 Ng8 3.Rh3: the h1 rook moved, the queenside right remains.
    EXPECT_TRUE(not_proved_illegal(analyze_fen("rnbqkbnr/pppppppp/8/8/7P/7R/PPPPPPP1/RNBQKBN1 b Qkq - 0 2")));
}

// An en passant square is the square skipped by the last move, a double step of the side not
// to move: its pawn stands in front of it and the square behind it (the pawn's start) is empty.
TEST(LegalityEnPassant, SquareMustFollowDoubleStep) {
    const char* after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    rebirth::Setup no_pawn = parse_fen(after_e4);
    no_pawn.ep_square = SQ_D3;  // no white pawn on d4; d2 is occupied
    EXPECT_TRUE(illegal_with(analyze(no_pawn), "en passant square d3"));
    rebirth::Setup wrong_side = parse_fen(after_e4);
    wrong_side.side_to_move = WHITE;  // then Black moved last, and e3 is no black double step
    wrong_side.ep_square = SQ_E3;
    EXPECT_TRUE(illegal_with(analyze(wrong_side), "en passant square e3"));
    rebirth::Setup start_occupied = diagram({"wKg1", "wPe2", "wPe4", "bKe8"}, BLACK);
    start_occupied.ep_square = SQ_E3;  // e2 is not empty: the e4 pawn did not start there
    EXPECT_TRUE(illegal_with(analyze(start_occupied), "en passant square e3"));
}

// Units shut in by units that never moved (the walls): pawns on their second rank and, to a
// fixed point, units on their game-array squares whose every way out is a wall.

// Bc1 between unmoved pawns b2 and d2: a bishop leaves or enters c1 only through b2 or d2,
// so the c1 bishop never moved and c1 was occupied all game. The c-pawn on c3 cannot have
// taken its way there (it would have come from b2 or d2, whose pawns never moved), so it
// stepped from c2, and a unit on c2 came after it, from c1, b2, d2 (walls) or c3 (the pawn
// has stood there since): the rook on c2 is illegal (Retractor's LG-049, janko.at). With
// the bishop gone (a black knight took it on c1 and went away) the rook may have come
// a1-b1-c1-c2 after c2-c3, so that position is not proved illegal.
TEST(LegalityWalls, RookBehindPawnThatLeftItsSquare) {
    EXPECT_TRUE(illegal_with(analyze_fen("8/8/8/K6k/8/2P5/1PRP4/2B5 w - - 0 1"), "rook on c2"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/8/8/K6k/8/2P5/1PRP4/8 w - - 0 1")));
}

// The same for Black with a white rook (LG-055): Bf8 between unmoved e7 and g7 never moved;
// the f6 pawn stepped from f7 (e7 and g7 never moved), so the rook on f7 came after it from
// e7, g7, f8 (walls) or f6: illegal. A black pawn on f7 behind it is illegal for the same
// reason (no pawn comes back to its second rank).
TEST(LegalityWalls, UnitBehindPawnThatLeftItsSquare) {
    EXPECT_TRUE(illegal_with(analyze_fen("5b2/4pRp1/5p2/K6k/8/8/8/8 w - - 0 1"), "rook on f7"));
    EXPECT_TRUE(analyze_fen("5b2/4ppp1/5p2/K6k/8/8/8/8 w - - 0 1").illegal);
    // With e7 gone the f6 pawn may have taken there from e7 (exf6), and f7's pawn never moved.
    EXPECT_TRUE(not_proved_illegal(analyze_fen("5b2/5pp1/5p2/K6k/8/8/8/8 w - - 0 1")));
}

// Retractor's LG-031: Kg2 checked by Qg4 (g-file) and Bd5 (diagonal). One move made both
// checks: the queen uncovered the bishop's diagonal (leaving e4 or f3) or the bishop the
// queen's file (leaving g3, from which it cannot reach d5). But a queen on e4 or f3 already
// checked g2 along that diagonal with White to move, which no legal game has: illegal.
// Without the bishop the queen's single check came from d4, say: not proved illegal.
TEST(LegalityChecks, DiscoveringUnitMustNotHaveCheckedBefore) {
    EXPECT_TRUE(
        illegal_with(analyze_fen("2K5/8/8/3B4/6Q1/8/6k1/8 b - - 0 1"), "no last move of white gives the checks"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("2K5/8/8/8/6Q1/8/6k1/8 b - - 0 1")));
}

// Retractor's LG-058: Rb2 with unmoved a2 and c2. The b3 pawn came from b2 (a2 and c2
// never moved), and the black bishop on b1 can neither leave (a2, c2) nor have come but by a
// promotion from b2; so b3 and b1 have been held since units left b2, and the rook came to
// b2 later through neither: illegal. Without the bishop the rook may have come b1-b2.
TEST(LegalityWalls, RookShutInByAPromotedBishop) {
    EXPECT_TRUE(illegal_with(analyze_fen("8/7K/8/7k/8/1P6/PrP5/1b6 b - - 0 1"), "rook on b2"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("8/7K/8/7k/8/1P6/PrP5/8 b - - 0 1")));
}

// A white king on a8 behind unmoved black pawns a7 b7 c7 d7 and Bc8 (which never moved: b7
// and d7 shut it in): a8 and b8 are entered only from a7, b7, c7 or c8, so no king ever came
// in (LG-094). Without the bishop (a white knight took it on c8 and went away) and with the
// queen on e7, the king may have walked in through c8.
TEST(LegalityWalls, KingInACageOfUnmovedUnits) {
    EXPECT_TRUE(illegal_with(analyze_fen("K1bqkbnr/pppp3p/5p2/2N1p1p1/2P3n1/3P1P2/PP2P1PP/R1B2B1R b - - 0 1"),
                             "white king on a8"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("K3kbnr/ppppq2p/5p2/2N1p1p1/2P3n1/3P1P2/PP2P1PP/R1B2B1R b - - 0 1")));
}

// A first rank shut in by unmoved pawns is a corridor: kings, queens, rooks and bishops move
// in it only along the rank and never pass one another, except king and rook by castling.
// With pawns a2..h2 unmoved: Kd1 and Qe1 have changed places, which no sequence of moves
// along the rank does (castling exchanges a king and a rook only): illegal. Kg1 and Rf1 are
// 0-0 after a black knight took Bf1 there and left; Re1 and Kf1 then slide back to the left
// (in order); Kf1 and Rg1 are Ke1-f1 and Rh1-g1: all three are reachable.
TEST(LegalityWalls, FirstRankCorridorKeepsItsOrder) {
    EXPECT_TRUE(illegal_with(analyze_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR b kq - 0 1"), "order"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 b kq - 0 1")));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQRK2 b kq - 0 1")));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KR1 b kq - 0 1")));
}

// Retractor's LG-124: pawns a2..g2 unmoved and Bf1 shut in by e2 and g2, so a1..e1 is a
// corridor whose game-array order is R (B) Q K: Qb1 Rc1 Kd1 puts the queen before the rook,
// and no castling is possible (f1 is held): illegal. With Rb1 Qc1 Kd1 the order is kept.
TEST(LegalityWalls, QueenCannotPassRookInCorridor) {
    EXPECT_TRUE(
        illegal_with(analyze_fen("4b2r/p1p2p1p/1q3kp1/1p1pp2n/2Nb2nP/1R6/PPPPPPP1/1QRK1B2 b - - 0 1"), "order"));
    EXPECT_TRUE(not_proved_illegal(analyze_fen("4b2r/p1p2p1p/1q3kp1/1p1pp2n/2Nb2nP/1R6/PPPPPPP1/1RQK1B2 b - - 0 1")));
}

// Soundness on real games.

// Plays `games` games of at most `plies` half-moves from the game array, each move chosen by
// `choose(pos, legal moves, rng)` (a move of the list, or none to end the game), and checks
// that no position reached is proved illegal: every one is legal by definition. Each
// position is analysed with its castling rights and en passant square as the engine keeps
// them. Returns the number of positions and counts the castlings played.
template <class Choose>
int random_games_never_illegal(unsigned seed, int games, int plies, Choose choose, int& castlings) {
    std::mt19937 rng(seed);
    MoveList list;
    int positions = 0;
    for (int game = 0; game < games; ++game) {
        Position pos(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
        for (int ply = 0; ply < plies; ++ply) {
            generate_legal(pos, list);
            const std::optional<Move> m = choose(pos, list, rng);
            if (!m) break;
            castlings += m->kind == MoveKind::Castling;
            UndoInfo undo;
            pos.do_move(*m, undo);
            const rebirth::Setup s = pos.to_setup();
            const LegalityVerdict v = analyze(s);
            ++positions;
            if (v.illegal) {
                ADD_FAILURE() << v.reason << " in " << to_fen(s) << " (game " << game << ", ply " << ply << ")";
                return positions;
            }
        }
    }
    return positions;
}

// Random games (fixed seed) produce captures, promotions, castling, en passant and checks of
// every kind.
TEST(LegalitySoundness, RandomGamesAreNeverProvedIllegal) {
    int castlings = 0;
    const int positions = random_games_never_illegal(
        20240611, 400, 300,
        [](const Position&, const MoveList& list, std::mt19937& rng) -> std::optional<Move> {
            if (list.size() == 0) return std::nullopt;
            return list[std::uniform_int_distribution<int>(0, int(list.size()) - 1)(rng)];
        },
        castlings);
    EXPECT_GT(positions, 10000);
}

// The same with games where half the moves are pawn single steps (when there is one): they
// keep pawns at home and shut units in behind them, where the wall rules work.
TEST(LegalitySoundness, GamesOfPawnStepsAreNeverProvedIllegal) {
    int castlings = 0;
    const int positions = random_games_never_illegal(
        20261127, 400, 200,
        [](const Position& pos, const MoveList& list, std::mt19937& rng) -> std::optional<Move> {
            if (list.size() == 0) return std::nullopt;
            std::vector<Move> steps;
            for (const Move& m : list)
                if (pos.piece_on(m.from).walk == PAWN && pos.empty(m.to) && (m.to - m.from == 8 || m.from - m.to == 8))
                    steps.push_back(m);
            if (!steps.empty() && rng() % 2) return steps[rng() % steps.size()];
            return list[std::uniform_int_distribution<int>(0, int(list.size()) - 1)(rng)];
        },
        castlings);
    EXPECT_GT(positions, 10000);
}

// The same with games where pawns take whenever they can (and step otherwise, half the
// time): pawns change files, double up, pass the other side's pawns on their files by
// capturing and promote, where the pawn-structure rules work.
TEST(LegalitySoundness, GamesOfPawnCapturesAreNeverProvedIllegal) {
    int castlings = 0;
    const int positions = random_games_never_illegal(
        20261130, 600, 200,
        [](const Position& pos, const MoveList& list, std::mt19937& rng) -> std::optional<Move> {
            if (list.size() == 0) return std::nullopt;
            std::vector<Move> takes, steps;
            for (const Move& m : list) {
                if (pos.piece_on(m.from).walk != PAWN) continue;
                (pos.empty(m.to) && m.kind != MoveKind::EnPassant ? steps : takes).push_back(m);
            }
            if (!takes.empty()) return takes[rng() % takes.size()];
            if (!steps.empty() && rng() % 2) return steps[rng() % steps.size()];
            return list[std::uniform_int_distribution<int>(0, int(list.size()) - 1)(rng)];
        },
        castlings);
    EXPECT_GT(positions, 10000);
}

// The same with games where pawns race to promote: a promotion whenever there is one (to a
// unit chosen at random), else a move of the most advanced pawn that has one three times in
// four. Promoted units' pawns pass the other side's pawns on their files only by captures,
// where the joint rule on both sides' pawns works.
TEST(LegalitySoundness, GamesOfPromotionsAreNeverProvedIllegal) {
    int castlings = 0;
    const int positions = random_games_never_illegal(
        20261201, 600, 200,
        [](const Position& pos, const MoveList& list, std::mt19937& rng) -> std::optional<Move> {
            if (list.size() == 0) return std::nullopt;
            const test::PawnRace race = test::pawn_race(pos, list);
            if (!race.promotions.empty()) return race.promotions[rng() % race.promotions.size()];
            if (!race.ahead.empty() && rng() % 4) return race.ahead[rng() % race.ahead.size()];
            return list[std::uniform_int_distribution<int>(0, int(list.size()) - 1)(rng)];
        },
        castlings);
    EXPECT_GT(positions, 10000);
}

// Many more games (12000, 250 half-moves each: about 2.7 million positions), each biased one
// of three ways: pawn captures three times in four, pawn steps half the time, or pawn
// captures half the time. Rules that hold in rare structures only (pawns sealing squares,
// pawns passed on a file) meet their exceptions here.
TEST(LegalitySoundness, ManyGamesOfEveryBiasAreNeverProvedIllegal) {
    int positions = 0;
    for (unsigned seed = 1; seed <= 12000; ++seed) {
        int castlings = 0;
        const unsigned mode = seed % 3;
        positions += random_games_never_illegal(
            seed * 7919, 1, 250,
            [mode](const Position& pos, const MoveList& list, std::mt19937& rng) -> std::optional<Move> {
                if (list.size() == 0) return std::nullopt;
                std::vector<Move> takes, steps;
                for (const Move& m : list) {
                    if (pos.piece_on(m.from).walk != PAWN) continue;
                    (pos.empty(m.to) && m.kind != MoveKind::EnPassant ? steps : takes).push_back(m);
                }
                if (mode == 0 && !takes.empty() && rng() % 4) return takes[rng() % takes.size()];
                if (mode == 1 && !steps.empty() && rng() % 2) return steps[rng() % steps.size()];
                if (mode == 2 && !takes.empty() && rng() % 2) return takes[rng() % takes.size()];
                return list[std::uniform_int_distribution<int>(0, int(list.size()) - 1)(rng)];
            },
            castlings);
        if (HasFailure()) break;
    }
    EXPECT_GT(positions, 1000000);
}

// Games where only pieces move and no pawn is taken (pawns stay at home): knights go out and
// take pieces, the first ranks stay corridors in which kings, rooks and queens shuffle and
// castle once a knight has taken the bishop shut in between king and rook.
TEST(LegalitySoundness, GamesWithoutPawnMovesAreNeverProvedIllegal) {
    int castlings = 0;
    const int positions = random_games_never_illegal(
        99, 2000, 150,
        [](const Position& pos, const MoveList& list, std::mt19937& rng) -> std::optional<Move> {
            std::vector<Move> pieces;
            for (const Move& m : list)
                if (pos.piece_on(m.from).walk != PAWN && pos.piece_on(m.to).walk != PAWN) pieces.push_back(m);
            if (pieces.empty()) return std::nullopt;
            return pieces[rng() % pieces.size()];
        },
        castlings);
    EXPECT_GT(positions, 10000);
    EXPECT_GT(castlings, 0);
}

// promoted_nothing, the bound on promotions of the exact cage search (retro_cage.h): the
// position before White's f3xBe4 in janko.at's JR-D-130 (data/retro/hand-proofs/JR-D-130.md):
// Black's pawns on c6, d6 and a2 need seven of Black's eight captures and the bishop shut in
// on f1 by e2 and g2 was taken there by a piece, so Black's gone g- and h-pawns had none to
// leave the g- and h-files, shut below by the pawns on g2, f2 (f3's, which came straight) and
// h2 (h3's); White's a-pawn, its one gone pawn, never got past Black's a2. (Without the
// bishop counted, Black's g-pawn might take on f2 and promote on f1: no claim for Black, as
// measured before the count.) The game array: no pawn is gone.
// Bare kings and a third knight: no claim.
TEST(LegalityPromotions, PromotedNothingInJankoD130AndTheGameArray) {
    const rebirth::Setup before = parse_fen("8/ppp3P1/2pp4/8/4b3/5P1P/p1PPPkPK/4bq2 w - - 0 1");
    EXPECT_TRUE(promoted_nothing(before.board, WHITE));
    EXPECT_TRUE(promoted_nothing(before.board, BLACK));
    const rebirth::Setup array = parse_fen(kGameArrayFen);
    EXPECT_TRUE(promoted_nothing(array.board, WHITE));
    EXPECT_TRUE(promoted_nothing(array.board, BLACK));
    EXPECT_FALSE(promoted_nothing(parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").board, WHITE));
    EXPECT_FALSE(promoted_nothing(parse_fen("4k3/pppppppp/8/8/8/8/PPPPPPP1/1NN1KN2 w - - 0 1").board, WHITE));
}

// Random games that promote often (a pawn race three games in four, pawn moves half the
// time in the others): a side that promoted is never said to have promoted nothing, while
// the claim is made, beside the positions with all of a side's pawns, in thousands where
// some are gone.
TEST(LegalityPromotions, RandomGamesNeverPromoteWhatPromotedNothingDenies) {
    std::mt19937 rng(20261204);
    MoveList list;
    int claims = 0;
    for (int game = 0; game < 1500; ++game) {
        Position pos(parse_fen(kGameArrayFen));
        std::array<bool, COLOR_NB> promoted{false, false};
        for (int ply = 0; ply < 200; ++ply) {
            generate_legal(pos, list);
            if (list.size() == 0) break;
            std::vector<Move> pawns;
            for (const Move& m : list)
                if (pos.piece_on(m.from).walk == PAWN) pawns.push_back(m);
            const test::PawnRace race = test::pawn_race(pos, list);
            Move m = list[std::uniform_int_distribution<int>(0, int(list.size()) - 1)(rng)];
            if (game % 4 && !race.promotions.empty())
                m = race.promotions[rng() % race.promotions.size()];
            else if (game % 4 && !race.ahead.empty() && rng() % 4)
                m = race.ahead[rng() % race.ahead.size()];
            else if (!pawns.empty() && rng() % 2)
                m = pawns[rng() % pawns.size()];
            const Color mover = pos.piece_on(m.from).color;
            const bool pawn = pos.piece_on(m.from).walk == PAWN;
            UndoInfo undo;
            pos.do_move(m, undo);
            promoted[mover] = promoted[mover] || (pawn && pos.piece_on(m.to).walk != PAWN);
            const rebirth::Setup s = pos.to_setup();
            for (Color c : {WHITE, BLACK}) {
                if (!promoted_nothing(s.board, c)) continue;
                ASSERT_FALSE(promoted[c]) << to_fen(s) << ": " << (c == WHITE ? "White" : "Black") << " promoted";
                int pawns_left = 0;
                for (const Piece p : s.board) pawns_left += p == make_piece(c, PAWN);
                claims += pawns_left < 8;
            }
        }
    }
    EXPECT_GT(claims, 1000);
}

// LegalityMarks::promoted_unit: in games biased to promotions, a promoted unit marked as
// promoted on the square where it was is never proved illegal (its promotion square is a
// fact of the game), while in some positions the same unit marked as promoted on any other
// square of that rank is: the mark restricts the unit to its promotion squares (retro_cage.cpp's
// tracked units).
TEST(LegalityMarks, APromotedUnitIsNeverDeniedItsPromotionSquare) {
    std::mt19937 rng(20261205);
    MoveList list;
    int checked = 0, denied_elsewhere = 0;
    for (int game = 0; game < 1000; ++game) {
        Position pos(parse_fen(kGameArrayFen));
        std::array<Square, SQUARE_NB> promoted_on;  // per square, where its unit was promoted
        promoted_on.fill(SQ_NONE);
        // In three games of four, the pawns of some files never move and pieces rather take
        // nothing: tighter pawn structures, fewer promotion squares left.
        const unsigned still = game % 4 ? rng() & rng() & 0xFFu : 0;
        for (int ply = 0; ply < 200; ++ply) {
            generate_legal(pos, list);
            std::vector<Move> moves, promotions, pawns, quiet;
            for (const Move& m : list) {
                const Piece p = pos.piece_on(m.from);
                if (p.walk == PAWN && (still >> file_of(m.from) & 1u) && relative_rank(p.color, rank_of(m.from)) == 1)
                    continue;
                moves.push_back(m);
                if (m.kind == MoveKind::Promotion) promotions.push_back(m);
                if (p.walk == PAWN) pawns.push_back(m);
                if (pos.piece_on(m.to).empty() || p.walk == PAWN) quiet.push_back(m);
            }
            if (moves.empty()) break;
            Move m = moves[rng() % moves.size()];
            if (!promotions.empty() && rng() % 3)
                m = promotions[rng() % promotions.size()];
            else if (!pawns.empty() && rng() % 2)
                m = pawns[rng() % pawns.size()];
            else if (still && !quiet.empty())
                m = quiet[rng() % quiet.size()];
            const bool pawn = pos.piece_on(m.from).walk == PAWN;
            UndoInfo undo;
            pos.do_move(m, undo);
            const Square from_unit = promoted_on[m.from];
            promoted_on[m.from] = SQ_NONE;
            promoted_on[m.to] = pawn ? (pos.piece_on(m.to).walk != PAWN ? m.to : SQ_NONE) : from_unit;
            if (ply % 2) continue;
            const rebirth::Setup s = pos.to_setup();
            for (int i = 0; i < SQUARE_NB; ++i) {
                const Square q = promoted_on[size_t(i)];
                if (q == SQ_NONE) continue;
                ASSERT_FALSE(s.board[i].empty() || s.board[i].walk == PAWN) << to_fen(s);
                LegalityMarks marks;
                marks.promoted_unit = Square(i);
                marks.promoted_on = square_bb(q);
                const LegalityVerdict v = analyze_orthodox_legality(s.board, s.side_to_move, 0, SQ_NONE, marks);
                ASSERT_FALSE(v.illegal) << to_fen(s) << ": the unit on " << square_name(Square(i))
                                        << " was promoted on " << square_name(q) << ", yet " << v.reason;
                ++checked;
                marks.promoted_on = rank_bb(rank_of(q)) & ~square_bb(q);
                denied_elsewhere += analyze_orthodox_legality(s.board, s.side_to_move, 0, SQ_NONE, marks).illegal;
            }
        }
    }
    EXPECT_GT(checked, 100000);
    EXPECT_GT(denied_elsewhere, 1000);
    std::printf("%d promoted units checked, %d denied every other square of their rank\n", checked, denied_elsewhere);
}

// Marks are claims about the diagram (legality.h): a unit marked frozen stands on a game-array
// square of its walk and colour (a knight on c3 never stood there all game); a king or a pawn
// is never promoted; with all 8 white pawns on the board no white unit was promoted, so the
// game array with its queen marked promoted is illegal, and without the mark it is not.
TEST(LegalityMarks, MarksAreClaims) {
    const rebirth::Setup array = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    const auto judge = [&](const rebirth::Setup& s, Bitboard frozen, Bitboard promoted) {
        return analyze_orthodox_legality(s.board, s.side_to_move, 0, SQ_NONE, LegalityMarks{frozen, promoted});
    };
    EXPECT_FALSE(judge(array, square_bb(SQ_E1) | square_bb(SQ_B8) | square_bb(SQ_C2), 0).illegal);
    const rebirth::Setup knight = parse_fen("rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR b - - 0 1");
    EXPECT_FALSE(judge(knight, 0, 0).illegal);
    EXPECT_TRUE(illegal_with(judge(knight, square_bb(SQ_C3), 0), "no game-array square"));
    EXPECT_TRUE(illegal_with(judge(array, 0, square_bb(SQ_E1)), "marked promoted"));
    EXPECT_TRUE(illegal_with(judge(array, 0, square_bb(SQ_A2)), "marked promoted"));
    EXPECT_TRUE(illegal_with(judge(array, square_bb(SQ_D1), square_bb(SQ_D1)), "marked promoted"));
    EXPECT_TRUE(illegal_with(judge(array, 0, square_bb(SQ_D1)), "queen on d1 cannot have reached its square"));
    EXPECT_TRUE(illegal_with(judge(array, square_bb(SQ_E4), 0), "nothing stands on e4"));
}

// Retractor's legality labels (../shared/reference/retro/legality.jsonl, 81 positions), each
// judged with the marks of its `constraints` (units that never moved or were promoted, which
// a diagram does not show): a `legal` label (Retractor's static checker found nothing) is
// never refuted, with its marks or without, since a label that a legal game reaches must not
// be called illegal; of the 41 `illegal` ones the analyzer proves all but LG-082 (the order in
// which units left a cage: the cage search of retro_cage.h proves it). Four hold only with
// their marks: LG-097 (Ra8 and Ke8 never moved: the white rook on c8 cannot have come in),
// LG-106 (the queen on e1, promoted, cannot have come into the first rank shut by Bc1 and the
// pawns d2 to h2), LG-205 (Qd1 never moved: its squares and the pawns' shut the black king
// out of f2) and LG-208 (Ke8 never moved: the three white rooks, one at least promoted,
// cannot all have come to the third rank: a rook promoted on the eighth rank stays there or on
// b7 and h7, since a7, c7, d7, f7 and g7 never moved, b6 and h6 hold the pawns that stepped
// from b7 and h7, and only e8 leads to e7).
namespace {

// A legality label of a Retractor file, judged by the static analysis with its marks.
struct JudgedLabel {
    std::string id;
    bool legal = false;  // the label's `expected`
    rebirth::Setup setup;
    LegalityMarks marks;
    LegalityVerdict verdict;
};

// The labels of `file`, each judged; a `legal` one is checked at once never to be refuted, with
// its marks or without.
std::vector<JudgedLabel> judged_labels(const std::filesystem::path& file) {
    std::vector<JudgedLabel> out;
    for (const auto& j : test::read_jsonl(file)) {
        JudgedLabel label{
            j["id"], j["expected"] == "legal", parse_fen(j["fen"].get<std::string>()), test::label_marks(j), {}};
        const rebirth::Setup& s = label.setup;
        label.verdict = analyze_orthodox_legality(s.board, s.side_to_move, s.castling, s.ep_square, label.marks);
        if (label.legal) {
            EXPECT_FALSE(label.verdict.illegal) << label.id << ": " << label.verdict.reason;
            EXPECT_FALSE(analyze(s).illegal) << label.id << " without its marks";
        }
        out.push_back(std::move(label));
    }
    return out;
}

}  // namespace

TEST(LegalityReference, RetractorLabels) {
    int illegal = 0, proved = 0, legal = 0;
    std::string missed;
    for (const JudgedLabel& label :
         judged_labels(std::filesystem::path(REBIRTH_SHARED_DIR) / "reference" / "retro" / "legality.jsonl")) {
        if (label.legal) {
            ++legal;
        } else {
            ++illegal;
            if (label.verdict.illegal)
                ++proved;
            else
                missed += " " + label.id;
        }
    }
    std::printf("%d illegal labels, %d proved; not proved:%s\n", illegal, proved, missed.c_str());
    EXPECT_EQ(legal, 40);
    EXPECT_EQ(illegal, 41);
    EXPECT_GE(proved, 40);
}

// The other 163 legality labels of Retractor's tests (data/retro/retractor_legality.jsonl,
// beside the 81 of ../shared/reference): a `legal` label (Retractor's static check finds
// nothing) is never refuted, with its marks or without; every `illegal` one is proved, by the
// static analysis or else by judge_legality's retractions and cage search (LG-083, the order in
// which units left a cage, like the reference's LG-082), and so is LG-015, which Retractor
// labels `ok` but which is illegal (its `note`: no capture was ever made, and the two b-pawns,
// both promoted, cannot have passed each other on their file).
TEST(LegalityReference, RetractorsOtherLabels) {
    int legal = 0, illegal = 0, statically = 0, deeper = 0;
    std::string missed;
    for (const JudgedLabel& label :
         judged_labels(std::filesystem::path(REBIRTH_SOURCE_DIR) / "data" / "retro" / "retractor_legality.jsonl")) {
        if (label.legal) {
            ++legal;
            continue;
        }
        ++illegal;
        if (label.verdict.illegal) {
            ++statically;
            continue;
        }
        BuildLimits limits;
        limits.seconds = 0;
        limits.max_nodes = 200;
        if (judge_legality(label.setup, 3, limits, label.marks).verdict == LegalityProof::Verdict::Illegal)
            ++deeper;
        else
            missed += " " + label.id;
    }
    std::printf(
        "%d legal labels; %d illegal labels: %d proved by the static analysis, %d by judge_legality; not "
        "proved:%s\n",
        legal, illegal, statically, deeper, missed.c_str());
    EXPECT_EQ(legal, 76);
    EXPECT_EQ(illegal, 87);
    EXPECT_EQ(missed, "");
}
