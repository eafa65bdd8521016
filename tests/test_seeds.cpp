// The examples of the four seed documents (/work/shared/seeds/*.txt) as unit tests, plus
// hand-made move lists for our own variants (Hydra, Kamikaze, Atom, Alsatian). Every
// expected board, move and move list comes from the seed text or /work/shared/RULES.md (the
// section or catalogue row is cited above each test), never from the engine's output.
//
// The seeds describe diagrams in words; each position below is rebuilt from that text. Where
// the text does not place the kings, they were added away from the action (said in a comment).
// Square colours used below: a1 is dark; a square is dark when file + rank (both counted from
// 0) is even
// (b4, c3, c5, d2, b8 dark; c2, c4, d1, d5, e2, e6, b1 light).
#include <gtest/gtest.h>

#include "test_util.h"

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/position.h"
#include "rebirth/problem.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"

using namespace rebirth;

namespace {

using rebirth::test::diagram;
using rebirth::test::legal_moves;
using rebirth::test::sorted;

// Seed files, cited by the tests.
// 001_f3b282311f7f6aaf.txt  classic Circe rebirth squares (French), diagrams A-F
// 002_04201f16d0671404.txt  Circe family overview (English): Atom, Vulcan, Hydra, Kamikaze
// 003_0ecf36203a9014ef.txt  Anti-Circe Calvet / Cheylan (French), diagrams A-D
// 004_172c158213e89352.txt  Circe Assassin (French), diagrams A-F

// The units of a board in square order a1..h8 as "wKe1 bSc2 ..." (attribute flags ignored).
std::string units(const std::array<Piece, SQUARE_NB>& board) {
    static const char* letters = "?KQRBSPGN";
    std::string out;
    for (int s = 0; s < SQUARE_NB; ++s) {
        const Piece p = board[s];
        if (p.empty()) continue;
        if (!out.empty()) out += ' ';
        out += p.color == WHITE ? 'w' : 'b';
        out += p.walk < 9 ? letters[p.walk] : '?';
        out += square_name(Square(s));
    }
    return out;
}
// The units of a position's board, as above.
std::string units(const Position& pos) {
    std::array<Piece, SQUARE_NB> b{};
    for (int s = 0; s < SQUARE_NB; ++s) b[s] = pos.piece_on(Square(s));
    return units(b);
}
// The units of an expected board given as unit words, as above.
std::string units(std::initializer_list<const char*> words) { return units(diagram(words, WHITE).board); }

// A position under one condition; owns its RuleSet, which must outlive the Position.
struct Game {
    std::unique_ptr<RuleSet> rules;
    Position pos;
    Game(const std::vector<Condition>& conditions, const Setup& setup)
        : rules(std::make_unique<RuleSet>(resolve_rules(conditions))) {
        SetupRules sr;
        sr.rules = rules.get();
        pos.set(setup, sr, "<seed>");
    }
};

// The legal moves from `from` to `to` (with promotion walk `promo`, or any when NO_WALK).
std::vector<Move> legal_between(const Position& pos, Square from, Square to, Walk promo = NO_WALK) {
    MoveList list;
    generate_legal(pos, list);
    std::vector<Move> out;
    for (const Move& m : list)
        if (m.from == from && m.to == to && (promo == NO_WALK || m.promotion == promo)) out.push_back(m);
    return out;
}

// Plays the unique legal move from->to (promotion promo) and returns its notation as written
// before the move; "<illegal>" (and a test failure) when there is no such legal move.
std::string play(Position& pos, Square from, Square to, UndoInfo& undo, Walk promo = NO_WALK) {
    const std::vector<Move> ms = legal_between(pos, from, to, promo);
    if (ms.size() != 1) {
        ADD_FAILURE() << square_name(from) << "-" << square_name(to) << ": " << ms.size() << " legal moves match in "
                      << units(pos);
        return "<illegal>";
    }
    const std::string text = move_to_popeye(pos, ms[0]);
    pos.do_move(ms[0], undo);
    std::string why;
    EXPECT_TRUE(pos.is_consistent(&why)) << why;
    return text;
}

// The effects of a played move, in order, as "Rebirth wBc1", "Burial wPd2", "Eruption wSg1",
// "Removal wBb8", "Transfer wRc5->a1".
std::vector<std::string> effects(const UndoInfo& u) {
    std::vector<std::string> out;
    for (int i = 0; i < u.effect_count; ++i) {
        const Effect& e = u.effects[i];
        std::array<Piece, SQUARE_NB> one{};
        const Square at = e.kind == Effect::Kind::Removal || e.kind == Effect::Kind::Lift ? e.from : e.to;
        one[at] = e.piece;
        const std::string unit = units(one);
        switch (e.kind) {
            case Effect::Kind::Rebirth:
                out.push_back("Rebirth " + unit);
                break;
            case Effect::Kind::Burial:
                out.push_back("Burial " + unit);
                break;
            case Effect::Kind::Eruption:
                out.push_back("Eruption " + unit);
                break;
            case Effect::Kind::Removal:
                out.push_back("Removal " + unit);
                break;
            case Effect::Kind::Transfer:
                out.push_back("Transfer " + unit.substr(0, 2) + square_name(e.from) + "->" + square_name(e.to));
                break;
            case Effect::Kind::Lift:
                out.push_back("Lift " + unit);
                break;
            case Effect::Kind::Landing:
                out.push_back("Landing " + unit);
                break;
        }
    }
    return out;
}

// The buried units of a Volcanic position as "wPd2 wSg1" (in burial order).
std::string buried(const Position& pos) {
    std::string out;
    for (int i = 0; i < pos.buried_count(); ++i) {
        std::array<Piece, SQUARE_NB> one{};
        one[pos.buried(i).square] = pos.buried(i).piece;
        if (!out.empty()) out += ' ';
        out += units(one);
    }
    return out;
}

// Drops "[-...]" removal brackets, which RULES.md does not fix for Kamikaze notation.
std::string without_removals(std::string s) {
    for (size_t at; (at = s.find("[-")) != std::string::npos;) s.erase(at, s.find(']', at) + 1 - at);
    return s;
}

const std::vector<Condition> kCirce{{"Circe", {}}};

}  // namespace

// ---------------------------------------------------------------------------------------
// Seed 001 (classic Circe, RULES.md section 3). Kings are not in the seed's text: wKh4 and
// bKh8 were added away from the action in every diagram.

// Seed 001, Diagrams A and B: Black plays Cxb4 (knight c2 takes the white queen on b4); d1 is
// empty, so the queen is parachuted onto d1, the queen's game-array square (RULES.md s.3: Q d1).
TEST(Seed001Circe, DiagramAB_QueenCapturedOnB4RebornOnD1) {
    Game g(kCirce, diagram({"wKh4", "wQb4", "bKh8", "bSc2"}, BLACK));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_C2, SQ_B4, u), "Sc2*b4[+wQd1]");
    EXPECT_EQ(units(g.pos), units({"wKh4", "wQd1", "bKh8", "bSb4"}));
}

// Seed 001, Diagram C: a white rook captured on b4 is reborn on a1, not h1, because a1 is
// dark like b4 (RULES.md s.3: white R a1 dark / h1 light). Both corners are empty.
TEST(Seed001Circe, DiagramC_RookCapturedOnB4RebornOnA1NotH1) {
    Game g(kCirce, diagram({"wKh4", "wRb4", "bKh8", "bSc2"}, BLACK));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_C2, SQ_B4, u), "Sc2*b4[+wRa1]");
    EXPECT_EQ(units(g.pos), units({"wKh4", "wRa1", "bKh8", "bSb4"}));
}

// Seed 001, Diagram D: the bishop captured on b4 is reborn on c1, home of the dark-square
// bishop (RULES.md s.3: white B c1 dark / f1 light).
TEST(Seed001Circe, DiagramD_BishopCapturedOnB4RebornOnC1) {
    Game g(kCirce, diagram({"wKh4", "wBb4", "bKh8", "bSc2"}, BLACK));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_C2, SQ_B4, u), "Sc2*b4[+wBc1]");
    EXPECT_EQ(units(g.pos), units({"wKh4", "wBc1", "bKh8", "bSb4"}));
}

// Seed 001, Diagram E: the white knight captured on c2 is reborn on b1, not g1, because b1 is
// light like c2 (RULES.md s.3: white S g1 dark / b1 light). The capturer (a black rook on c8)
// is not named by the text.
TEST(Seed001Circe, DiagramE_KnightCapturedOnC2RebornOnB1NotG1) {
    Game g(kCirce, diagram({"wKh4", "wSc2", "bKh8", "bRc8"}, BLACK));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_C8, SQ_C2, u), "Rc8*c2[+wSb1]");
    EXPECT_EQ(units(g.pos), units({"wKh4", "wSb1", "bKh8", "bRc2"}));
}

// Seed 001, Diagram F: the white knight captures a black pawn standing on the b-file; the
// pawn is reborn on b7, the black pawn's home on the capture file (RULES.md s.3: P second rank).
TEST(Seed001Circe, DiagramF_PawnCapturedOnBFileRebornOnB7) {
    Game g(kCirce, diagram({"wKh4", "wSd4", "bKh8", "bPb5"}, WHITE));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_D4, SQ_B5, u), "Sd4*b5[+bPb7]");
    EXPECT_EQ(units(g.pos), units({"wKh4", "wSb5", "bKh8", "bPb7"}));
}

// Seed 001, last paragraph (and seed 002 "Fairy units are reborn too"): a fairy unit counts
// as a promoted pawn; a white one captured on the a-file (not a8) is reborn on a8
// (RULES.md s.3: fairy walks, promotion square of the file, White rank 8).
TEST(Seed001Circe, FairyWhiteGrasshopperCapturedOnAFileRebornOnA8) {
    Game g(kCirce, diagram({"wKh4", "wGa3", "bKh8", "bRd3"}, BLACK));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_D3, SQ_A3, u), "Rd3*a3[+wGa8]");
    EXPECT_EQ(units(g.pos), units({"wKh4", "wGa8", "bKh8", "bRa3"}));
}

// Seed 001, last paragraph: black fairy units are reborn on the first rank, on the capture
// file (RULES.md s.3: Black rank 1): a5 -> a1, e5 -> e1.
TEST(Seed001Circe, FairyBlackGrasshopperRebornOnFirstRank) {
    Game g(kCirce, diagram({"wKh4", "wRd5", "bKh8", "bGa5", "bGe5"}, WHITE));
    {
        UndoInfo u;
        Position p = g.pos;
        EXPECT_EQ(play(p, SQ_D5, SQ_A5, u), "Rd5*a5[+bGa1]");
        EXPECT_EQ(units(p), units({"wKh4", "wRa5", "bKh8", "bGa1", "bGe5"}));
    }
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_D5, SQ_E5, u), "Rd5*e5[+bGe1]");
    EXPECT_EQ(units(g.pos), units({"wKh4", "wRe5", "bKh8", "bGa5", "bGe1"}));
}

// Seed 001: "Les pièces promues renaissent comme les figures présentes au début de la partie"
// (RULES.md s.3: a promoted queen is reborn as a queen, on d1). The queen is promoted in play
// (1.c7-c8=Q) and taken at once (1...Rd8*c8).
TEST(Seed001Circe, PromotedQueenRebornOnD1) {
    Game g(kCirce, diagram({"wKh4", "wPc7", "bKh8", "bRd8"}, WHITE));
    UndoInfo u1, u2;
    EXPECT_EQ(play(g.pos, SQ_C7, SQ_C8, u1, QUEEN), "c7-c8=Q");
    EXPECT_EQ(play(g.pos, SQ_D8, SQ_C8, u2), "Rd8*c8[+wQd1]");
    EXPECT_EQ(units(g.pos), units({"wKh4", "wQd1", "bKh8", "bRc8"}));
}

// RULES.md s.3: "the square the capturer just left counts as empty": the black bishop leaves
// f1 to take the white bishop on light e2, which is reborn on f1 at once.
TEST(Seed001Circe, RebirthOnTheSquareTheCapturerLeft) {
    Game g(kCirce, diagram({"wKh4", "wBe2", "bKh8", "bBf1"}, BLACK));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_F1, SQ_E2, u), "Bf1*e2[+wBf1]");
    EXPECT_EQ(units(g.pos), units({"wKh4", "wBf1", "bKh8", "bBe2"}));
}

// RULES.md s.3: "the capture square does not [count as empty]" and seed 001 ("Si cette case
// n'est pas vide, la pièce capturée est retirée"): a pawn taken on b7, its own rebirth square,
// is lost, and no bracket is printed.
TEST(Seed001Circe, RebirthSquareIsTheCaptureSquareUnitLost) {
    Game g(kCirce, diagram({"wKh4", "wSd6", "bKh8", "bPb7"}, WHITE));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_D6, SQ_B7, u), "Sd6*b7");
    EXPECT_EQ(units(g.pos), units({"wKh4", "wSb7", "bKh8"}));
}

// ---------------------------------------------------------------------------------------
// Seed 002 (English overview).

// Seed 002, "Atom Circe" (Juraj Lörinc's example; RULES.md s.5 row "Atom Circe"):
// W Ka3 Qc3 Pd3 Pc2, B Kf7 Be2 Se5 Pe4 Pe7; Black plays Sxd3:
// "BNe5 -> d3 (move), Wpd3 -> d2 (circe), WQc3 -> d1 (atom), BBe2 -> c8 (atom),
// Bpe4 -> out (atom), Wpc2 -> out (atom)". The pawn just reborn on d2 stays there (the seed
// lists no atom effect for it); wPc2 stands on its rebirth square and is lost; bPe4's
// square e7 is occupied, so it is lost. (RULES.md's "a unit already standing on its rebirth
// square is lost" is read, as the seed's list requires, for units that stood next to d3
// before the move, not for the pawn reborn by the capture itself.)
TEST(Seed002Atom, LorincExample) {
    Game g({{"Circe", {"Atom"}}},
           diagram({"wKa3", "wQc3", "wPd3", "wPc2", "bKf7", "bBe2", "bSe5", "bPe4", "bPe7"}, BLACK));
    UndoInfo u;
    const std::string text = play(g.pos, SQ_E5, SQ_D3, u);
    EXPECT_EQ(text.rfind("Se5*d3[+wPd2]", 0), 0u) << text;
    EXPECT_EQ(units(g.pos), units({"wKa3", "wQd1", "wPd2", "bKf7", "bBc8", "bSd3", "bPe7"}));
}

// Seed 002, "Vulcan circe" (RULES.md s.5 row "Vulcan (Volcanic) Circe": "Seed 002's game must
// replay exactly"; s.1 notation: burial [+wPd2->v], eruption [+wSg1]). The game
// 1. d2-d4 e7-e5 2. Bc1-d2 e5xd4 3.Nb1-c3 d4xc3 4. Ng1-f3 [+wNg1] c3xb2
// 5. Bd2-c3 [+wPd2] b2-b1=B [+wPb2], from the game array:
// 2...exd4: wP reborn on d2, occupied by the bishop -> buried under d2.
// 3...dxc3: wS captured on dark c3 -> g1, occupied by the other knight -> buried under g1.
// 4.Sf3: g1 empties, the knight erupts. 4...cxb2: the pawn's rebirth square b2 is the capture
// square, occupied by the capturer (RULES.md s.3: "the capture square does not [count as
// empty]") -> buried under b2. 5.Bc3: d2 empties, wP erupts. 5...b1=B: b2 empties, wP erupts.
TEST(Seed002Volcanic, GameReplaysWithBurialsAndEruptions) {
    Game g({{"Circe", {"Volcanic"}}}, parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    Position& p = g.pos;
    struct Ply {
        Square from, to;
        Walk promo;
        const char* text;
        std::vector<std::string> effects;
        const char* buried;
    };
    const std::vector<Ply> game = {
        {SQ_D2, SQ_D4, NO_WALK, "d2-d4", {}, ""},
        {SQ_E7, SQ_E5, NO_WALK, "e7-e5", {}, ""},
        {SQ_C1, SQ_D2, NO_WALK, "Bc1-d2", {}, ""},
        {SQ_E5, SQ_D4, NO_WALK, "e5*d4[+wPd2->v]", {"Burial wPd2"}, "wPd2"},
        {SQ_B1, SQ_C3, NO_WALK, "Sb1-c3", {}, "wPd2"},
        {SQ_D4, SQ_C3, NO_WALK, "d4*c3[+wSg1->v]", {"Burial wSg1"}, "wPd2 wSg1"},
        {SQ_G1, SQ_F3, NO_WALK, "Sg1-f3[+wSg1]", {"Eruption wSg1"}, "wPd2"},
        {SQ_C3, SQ_B2, NO_WALK, "c3*b2[+wPb2->v]", {"Burial wPb2"}, "wPd2 wPb2"},
        {SQ_D2, SQ_C3, NO_WALK, "Bd2-c3[+wPd2]", {"Eruption wPd2"}, "wPb2"},
        {SQ_B2, SQ_B1, BISHOP, "b2-b1=B[+wPb2]", {"Eruption wPb2"}, ""},
    };
    const Key start_key = p.key();
    const std::string start_units = units(p);
    std::vector<UndoInfo> undo(game.size());
    std::vector<Move> moves;
    for (size_t i = 0; i < game.size(); ++i) {
        const Ply& ply = game[i];
        SCOPED_TRACE(ply.text);
        const std::vector<Move> ms = legal_between(p, ply.from, ply.to, ply.promo);
        ASSERT_EQ(ms.size(), 1u);
        moves.push_back(ms[0]);
        EXPECT_EQ(play(p, ply.from, ply.to, undo[i], ply.promo), ply.text);
        EXPECT_EQ(effects(undo[i]), ply.effects);
        EXPECT_EQ(buried(p), ply.buried);
    }
    // Final position: White has every unit (the knight reborn on g1, both pawns back on b2 and
    // d2, the bishop on c3); Black lost the e-pawn and has a promoted bishop on b1.
    EXPECT_EQ(units(p), units({"wRa1", "bBb1", "wBc3", "wQd1", "wKe1", "wBf1", "wSg1", "wRh1", "wPa2", "wPb2", "wPc2",
                               "wPd2", "wPe2", "wPf2", "wPg2", "wPh2", "wSf3", "bPa7", "bPb7", "bPc7", "bPd7", "bPf7",
                               "bPg7", "bPh7", "bRa8", "bSb8", "bBc8", "bQd8", "bKe8", "bBf8", "bSg8", "bRh8"}));
    EXPECT_EQ(p.buried_count(), 0);
    EXPECT_EQ(p.side_to_move(), WHITE);
    // Taking the game back restores the game array exactly (burials and eruptions undone).
    for (size_t i = game.size(); i-- > 0;) {
        p.undo_move(moves[i], undo[i]);
        EXPECT_EQ(buried(p), i == 0 ? "" : game[i - 1].buried) << game[i].text;
    }
    EXPECT_EQ(units(p), start_units);
    EXPECT_EQ(p.key(), start_key);
    std::string why;
    EXPECT_TRUE(p.is_consistent(&why)) << why;
}

// Seed 002, "Hydra Circe": "a black pawn captured on c3 is reborn on both c7 and f7"
// (RULES.md s.5 row "Hydra Circe"). Kings wKh1, bKh8 added; the capturer is a white knight.
TEST(Seed002Hydra, PawnCapturedOnC3RebornOnC7AndF7) {
    Game g({{"Circe", {"Hydra"}}}, diagram({"wKh1", "wSb1", "bKh8", "bPc3"}, WHITE));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_B1, SQ_C3, u), "Sb1*c3[+bPc7][+bPf7]");
    EXPECT_EQ(units(g.pos), units({"wKh1", "wSc3", "bKh8", "bPc7", "bPf7"}));
}

// Seed 002, "Kamikaze Circe": "The captured piece is reborn, the capturing piece disappears"
// (RULES.md s.5 row "Kamikaze Circe"). A white rook takes a black knight on light d5 (-> g8).
// Kings wKh1, bKh8 added.
TEST(Seed002Kamikaze, CapturerDisappearsCapturedReborn) {
    Game g({{"Circe", {"Kamikaze"}}}, diagram({"wKh1", "wRd1", "bKh8", "bSd5"}, WHITE));
    UndoInfo u;
    const std::string text = play(g.pos, SQ_D1, SQ_D5, u);
    EXPECT_EQ(without_removals(text), "Rd1*d5[+bSg8]");
    EXPECT_EQ(units(g.pos), units({"wKh1", "bKh8", "bSg8"}));
}

// ---------------------------------------------------------------------------------------
// Seed 003 (Anti-Circe; RULES.md s.5 rows "Anti-Circe Calvet" / "Anti-Circe Cheylan").
// Diagrams A/B/C are rebuilt from the notes: White Kb1, a rook that takes a pawn on c5, a
// knight on d6 that attacks a black unit on c4; the black king next to d6 (e7) with e8 free.

// Seed 003, Diagrams A and B: "Txc5": the rook takes the pawn and is replaced on a1 because c5
// is dark (RULES.md s.3: white R a1 dark). Notation of the transfer: RULES.md s.1 [wQd5->d1].
TEST(Seed003AntiCirce, DiagramAB_RookTakesC5RebornOnA1) {
    Game g({{"AntiCirce", {}}}, diagram({"wKb1", "wRg5", "wSd6", "bKe7", "bPc5", "bPc4"}, WHITE));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_G5, SQ_C5, u), "Rg5*c5[wRc5->a1]");
    EXPECT_EQ(units(g.pos), units({"wKb1", "wRa1", "wSd6", "bKe7", "bPc4"}));
}

// Seed 003, note to Diagram A: "Cd6xc4" is orthodox-possible but illegal, since the knight's
// rebirth square b1 (c4 is light) holds the white king (RULES.md s.5 Calvet: "if that square
// is occupied the capture is illegal").
TEST(Seed003AntiCirce, DiagramA_KnightCaptureIllegalWhenB1Occupied) {
    Game g({{"AntiCirce", {}}}, diagram({"wKb1", "wRg5", "wSd6", "bKe7", "bPc5", "bPc4"}, WHITE));
    EXPECT_TRUE(legal_between(g.pos, SQ_D6, SQ_C4).empty());
    // The knight's other moves stay legal (orthodox non-captures).
    EXPECT_EQ(legal_between(g.pos, SQ_D6, SQ_B5).size(), 1u);
}

// Seed 003, note to Diagram A: "Si les Noirs ont le trait, le Roi noir peut capturer en d6
// avec replacement en e8" (RULES.md s.5 Calvet: kings included).
TEST(Seed003AntiCirce, DiagramA_BlackKingCapturesD6RebornOnE8) {
    Game g({{"AntiCirce", {}}}, diagram({"wKb1", "wRg5", "wSd6", "bKe7", "bPc5", "bPc4"}, BLACK));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_E7, SQ_D6, u), "Ke7*d6[bKd6->e8]");
    EXPECT_EQ(units(g.pos), units({"wKb1", "wRg5", "bKe8", "bPc5", "bPc4"}));
}

// Seed 003, Diagram C: a black pawn takes a knight on the first rank with promotion:
// =S -> g8, =Q -> d8, =R -> a8; =B impossible because c8 is occupied. The capture square is
// light (d1), as g8 / a8 / c8 require. Reconstructed: W Kh2 Sd1, B Kh8 Bc8 Pc2 (the unit on
// c8 and both kings are not given by the text).
TEST(Seed003AntiCirce, DiagramC_PromotionCaptureRebirthChoices) {
    Game g({{"AntiCirce", {}}}, diagram({"wKh2", "wSd1", "bKh8", "bBc8", "bPc2"}, BLACK));
    std::vector<std::string> got;
    for (const Move& m : legal_between(g.pos, SQ_C2, SQ_D1)) got.push_back(move_to_popeye(g.pos, m));
    EXPECT_EQ(sorted(got), sorted({"c2*d1=S[bSd1->g8]", "c2*d1=Q[bQd1->d8]", "c2*d1=R[bRd1->a8]"}));
}

// Seed 003, Diagram D: a capture on the capturing unit's own rebirth square is playable in
// Calvet, not in Cheylan (RULES.md s.5 rows Calvet: "legal; it stays there", Cheylan:
// "illegal"). Here a white knight takes on b1, its own (light) home square. Kings added.
TEST(Seed003AntiCirce, DiagramD_CaptureOnOwnRebirthSquareCalvetVsCheylan) {
    const rebirth::Setup s = diagram({"wKh4", "wSc3", "bKh8", "bBb1"}, WHITE);
    {
        Game calvet({{"AntiCirce", {"Calvet"}}}, s);
        UndoInfo u;
        const std::string text = play(calvet.pos, SQ_C3, SQ_B1, u);
        EXPECT_EQ(text.rfind("Sc3*b1", 0), 0u) << text;
        EXPECT_EQ(units(calvet.pos), units({"wKh4", "wSb1", "bKh8"}));
    }
    {
        Game plain({{"AntiCirce", {}}}, s);  // AntiCirce = AntiCirce Calvet (RULES.md s.5)
        EXPECT_EQ(legal_between(plain.pos, SQ_C3, SQ_B1).size(), 1u);
    }
    {
        Game cheylan({{"AntiCirce", {"Cheylan"}}}, s);
        EXPECT_TRUE(legal_between(cheylan.pos, SQ_C3, SQ_B1).empty());
    }
}

// Seed 003: "Un coup donne échec si la capture du Roi correspondante est un coup avec
// replacement possible" (RULES.md s.5 Calvet: "A unit gives check only if the king capture
// would be legal"). The white rook next to the black king on dark e5 would be reborn on a1:
// with a1 free that is check, with a white knight on a1 it is not. White king on h1 added.
TEST(Seed003AntiCirce, CheckOnlyIfTheKingCaptureIsLegal) {
    Game free_a1({{"AntiCirce", {}}}, diagram({"wKh1", "wRd5", "bKe5"}, BLACK));
    EXPECT_TRUE(free_a1.pos.in_check());
    Game taken_a1({{"AntiCirce", {}}}, diagram({"wKh1", "wSa1", "wRd5", "bKe5"}, BLACK));
    EXPECT_FALSE(taken_a1.pos.in_check());
}

// ---------------------------------------------------------------------------------------
// Seed 004 (Circe Assassin; RULES.md s.5 row "Circe Assassin": the occupant is removed,
// Popeye prints only the rebirth). Kings not named by the text were added on h8 / h4 / a1.

const std::vector<Condition> kAssassin{{"Circe", {"Assassin"}}};

// Seed 004, Diagrams A and B: White Kd3xd2 takes the knight, reborn on b8 (d2 dark -> black S
// b8), crushing the white bishop standing there. Black king added on h8.
TEST(Seed004Assassin, DiagramAB_KnightRebornOnB8RemovesWhiteBishop) {
    Game g(kAssassin, diagram({"wKd3", "wBb8", "bKh8", "bSd2"}, WHITE));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_D3, SQ_D2, u), "Kd3*d2[+bSb8]");
    EXPECT_EQ(units(g.pos), units({"wKd2", "bKh8", "bSb8"}));
}

// Seed 004, after Diagram B: with a black unit "O" on b8 instead of the white bishop (here a
// black bishop), Kd3xd2 leads to the same final position: the black unit is removed too.
TEST(Seed004Assassin, DiagramAB_BlackOccupantRemovedToo) {
    Game g(kAssassin, diagram({"wKd3", "bKh8", "bSd2", "bBb8"}, WHITE));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_D3, SQ_D2, u), "Kd3*d2[+bSb8]");
    EXPECT_EQ(units(g.pos), units({"wKd2", "bKh8", "bSb8"}));
}

// Seed 004, Diagram C: "Le Fou noir est écrasé en b1 par le Cavalier qu'il a capturé": the
// black bishop takes the white knight on b1, the knight's own rebirth square, and the reborn
// knight crushes the bishop (RULES.md s.5: "A unit captured on its own rebirth square removes
// the capturer"). The bishop comes from e4; kings wKh4, bKh8 added.
TEST(Seed004Assassin, DiagramC_CaptureOnRebirthSquareRemovesCapturer) {
    Game g(kAssassin, diagram({"wKh4", "wSb1", "bKh8", "bBe4"}, BLACK));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_E4, SQ_B1, u), "Be4*b1[+wSb1]");
    EXPECT_EQ(units(g.pos), units({"wKh4", "wSb1", "bKh8"}));
}

// Seed 004, Diagram D: the knight checks the white king by threatening the bishop whose
// rebirth square (c1: c5 is dark) is the king's square; Fc5-d6 does not parry, since on d6 the
// bishop is still attacked (RULES.md s.5: "A king is in check if a capture would rebirth a
// unit onto its square"). W Kc1 Bc5, B Se4 (attacks c5 and d6), bKh8 added. The legal moves
// follow: the king leaves c1 (not to d2, attacked by the knight), or the bishop goes to a
// square the knight does not attack (not d6, f2).
TEST(Seed004Assassin, DiagramD_CheckByThreatenedRebirth) {
    Game g(kAssassin, diagram({"wKc1", "wBc5", "bKh8", "bSe4"}, WHITE));
    EXPECT_TRUE(g.pos.in_check());
    EXPECT_TRUE(legal_between(g.pos, SQ_C5, SQ_D6).empty());
    EXPECT_EQ(legal_moves(g.pos), sorted({"Kc1-b1", "Kc1-b2", "Kc1-c2", "Kc1-d1", "Bc5-b6", "Bc5-a7", "Bc5-e7",
                                          "Bc5-f8", "Bc5-b4", "Bc5-a3", "Bc5-d4", "Bc5-e3", "Bc5-g1"}));
}

// Seed 004, Diagram E: Circe Symmetry with assassin rebirths: White plays Fxc4 (the symmetric
// square of c4 is f5); the black pawn is reborn on f5 and crushes the black rook there
// (RULES.md s.5 row "Symmetry Circe": c4 <-> f5). Bishop from e2; kings wKa1, bKh8 added.
TEST(Seed004Assassin, DiagramE_SymmetryAssassinPawnCrushesOwnRook) {
    Game g({{"Circe", {"Symmetry", "Assassin"}}}, diagram({"wKa1", "wBe2", "bKh8", "bPc4", "bRf5"}, WHITE));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_E2, SQ_C4, u), "Be2*c4[+bPf5]");
    EXPECT_EQ(units(g.pos), units({"wKa1", "wBc4", "bKh8", "bPf5"}));
}

// Seed 004, Diagram F: under Ultra-Circe, crushed units are reborn in turn; in Diagram B's
// situation the crushed white bishop (removed on dark b8) is reborn on c1 (RULES.md s.5 row
// "Ultra-Circe": "each removed unit is itself reborn by s.3 from the square where it was
// removed"). Notation is not fixed (Popeye lacks Ultra): only the board and effects are checked.
TEST(Seed004Ultra, DiagramF_CrushedBishopRebornOnC1) {
    Game g({{"Circe", {"Ultra"}}}, diagram({"wKd3", "wBb8", "bKh8", "bSd2"}, WHITE));
    UndoInfo u;
    const std::string text = play(g.pos, SQ_D3, SQ_D2, u);
    EXPECT_EQ(text.rfind("Kd3*d2[+bSb8]", 0), 0u) << text;
    EXPECT_EQ(units(g.pos), units({"wKd2", "wBc1", "bKh8", "bSb8"}));
    const std::vector<std::string> e = effects(u);
    EXPECT_NE(std::find(e.begin(), e.end(), "Rebirth wBc1"), e.end()) << testing::PrintToString(e);
}

// RULES.md s.5 "Ultra-Circe": a chain. As Diagram F, with a white rook on c1: the bishop
// reborn on c1 removes the rook, which is reborn on a1 (c1 dark), an empty square: the chain
// ends there.
TEST(Seed004Ultra, ChainOfRebirths) {
    Game g({{"Circe", {"Ultra"}}}, diagram({"wKd3", "wBb8", "wRc1", "bKh8", "bSd2"}, WHITE));
    UndoInfo u;
    play(g.pos, SQ_D3, SQ_D2, u);
    EXPECT_EQ(units(g.pos), units({"wRa1", "wBc1", "wKd2", "bKh8", "bSb8"}));
    const std::vector<std::string> e = effects(u);
    EXPECT_NE(std::find(e.begin(), e.end(), "Rebirth wBc1"), e.end()) << testing::PrintToString(e);
    EXPECT_NE(std::find(e.begin(), e.end(), "Rebirth wRa1"), e.end()) << testing::PrintToString(e);
}

// RULES.md s.5 "Ultra-Circe": "A unit whose rebirth square is the square it was removed from
// disappears, which ends the chain": the bishop reborn on c1 removes the other dark-square
// bishop standing on its own home c1, which is lost.
TEST(Seed004Ultra, UnitRemovedOnItsOwnRebirthSquareDisappears) {
    Game g({{"Circe", {"Ultra"}}}, diagram({"wKd3", "wBb8", "wBc1", "bKh8", "bSd2"}, WHITE));
    UndoInfo u;
    play(g.pos, SQ_D3, SQ_D2, u);
    EXPECT_EQ(units(g.pos), units({"wBc1", "wKd2", "bKh8", "bSb8"}));
}

// RULES.md s.5 "Ultra-Circe": "A rebirth onto a king's square counts as capturing that king".
// W Kc1 Ba1 Rb4, B Kh7 Be7: Bxb4 would reborn the rook on a1 (b4 dark), removing the bishop,
// reborn on c1 (a1 dark) = the king's square: check under Ultra, not under plain Assassin
// (there the chain stops on a1). Rb4-h4 (dark, still attacked) does not parry under Ultra.
TEST(Seed004Ultra, CheckThroughAChain) {
    const rebirth::Setup s = diagram({"wKc1", "wBa1", "wRb4", "bKh7", "bBe7"}, WHITE);
    Game ultra({{"Circe", {"Ultra"}}}, s);
    EXPECT_TRUE(ultra.pos.in_check());
    EXPECT_TRUE(legal_between(ultra.pos, SQ_B4, SQ_H4).empty());
    EXPECT_EQ(legal_between(ultra.pos, SQ_A1, SQ_B2).size(), 1u);  // a1 emptied: the chain stops there
    Game assassin(kAssassin, s);
    EXPECT_FALSE(assassin.pos.in_check());
    EXPECT_EQ(legal_between(assassin.pos, SQ_B4, SQ_H4).size(), 1u);
}

// ---------------------------------------------------------------------------------------
// Hand-made move lists for our variants (RULES.md s.5 rows). Lists are written out by hand
// from the row's rule; check marks are not printed.

// RULES.md s.5 "Hydra Circe": reborn on the s.3 square and on its mirror across the d/e line,
// "each only if empty". bPc3 -> c7 and f7; f7 is occupied here, so only c7.
TEST(HandHydra, MirrorSquareOccupiedOnlyClassicRebirth) {
    Game g({{"Circe", {"Hydra"}}}, diagram({"wKh1", "wSb1", "bKh8", "bPc3", "bPf7"}, WHITE));
    EXPECT_EQ(legal_moves(g.pos), sorted({"Kh1-g1", "Kh1-g2", "Kh1-h2", "Sb1-a3", "Sb1-d2", "Sb1*c3[+bPc7]"}));
}

// RULES.md s.5 "Hydra Circe", "each only if empty": the s.3 square c7 is occupied, the mirror
// f7 is empty, so the pawn is still reborn on f7.
TEST(HandHydra, ClassicSquareOccupiedMirrorRebirthOnly) {
    Game g({{"Circe", {"Hydra"}}}, diagram({"wKh1", "wSb1", "bKh8", "bPc3", "bPc7"}, WHITE));
    EXPECT_EQ(legal_moves(g.pos), sorted({"Kh1-g1", "Kh1-g2", "Kh1-h2", "Sb1-a3", "Sb1-d2", "Sb1*c3[+bPf7]"}));
}

// RULES.md s.5 "Hydra Circe" with s.3 "the square the capturer just left counts as empty": the
// rook leaves c7 to take on c3, and the pawn is reborn on c7 as well as on f7.
TEST(HandHydra, RebirthOnTheSquareTheCapturerLeft) {
    Game g({{"Circe", {"Hydra"}}}, diagram({"wKh1", "wRc7", "bKh8", "bPc3"}, WHITE));
    UndoInfo u;
    EXPECT_EQ(play(g.pos, SQ_C7, SQ_C3, u), "Rc7*c3[+bPc7][+bPf7]");
    EXPECT_EQ(units(g.pos), units({"wKh1", "wRc3", "bPc7", "bPf7", "bKh8"}));
}

// RULES.md s.5 "Hydra Circe" with a queen: d8 and its mirror e8 ("one capture can add two
// units"). W Kh1 Re2, B Kh8 Qe6: the queen does not reach h1, g1, g2, h2.
TEST(HandHydra, QueenRebornOnD8AndE8) {
    Game g({{"Circe", {"Hydra"}}}, diagram({"wKh1", "wRe2", "bKh8", "bQe6"}, WHITE));
    EXPECT_EQ(legal_moves(g.pos),
              sorted({"Kh1-g1", "Kh1-g2", "Kh1-h2", "Re2-e1", "Re2-e3", "Re2-e4", "Re2-e5", "Re2*e6[+bQd8][+bQe8]",
                      "Re2-a2", "Re2-b2", "Re2-c2", "Re2-d2", "Re2-f2", "Re2-g2", "Re2-h2"}));
}

// RULES.md s.5 "Kamikaze Circe": every capturer disappears. W Ke1 Re3, B Kh8 Re8 Se6: Rxe6
// would remove the rook and reborn the knight on g8 (e6 light), opening the e-file to bRe8,
// so the capture is illegal (RULES.md s.3: illegal if the mover's king is in check after all
// effects). Every other move is orthodox.
TEST(HandKamikaze, CaptureThatUnblocksOwnKingIsIllegal) {
    const rebirth::Setup s = diagram({"wKe1", "wRe3", "bKh8", "bRe8", "bSe6"}, WHITE);
    const std::vector<std::string> quiet = {"Ke1-d1", "Ke1-d2", "Ke1-e2", "Ke1-f1", "Ke1-f2",
                                            "Re3-e2", "Re3-e4", "Re3-e5", "Re3-a3", "Re3-b3",
                                            "Re3-c3", "Re3-d3", "Re3-f3", "Re3-g3", "Re3-h3"};
    Game kamikaze({{"Circe", {"Kamikaze"}}}, s);
    EXPECT_EQ(legal_moves(kamikaze.pos), sorted(quiet));
    // Control, RULES.md s.5 "Circe": the rook stays on e6 and still blocks the file.
    Game circe(kCirce, s);
    std::vector<std::string> with_capture = quiet;
    with_capture.push_back("Re3*e6[+bSg8]");
    EXPECT_EQ(legal_moves(circe.pos), sorted(with_capture));
}

// RULES.md s.5 "Kamikaze Circe": the capture itself is in the list, the captured knight reborn
// on g8 (d5 light). Removal brackets are not fixed by RULES.md and are ignored.
TEST(HandKamikaze, MoveListWithCapture) {
    Game g({{"Circe", {"Kamikaze"}}}, diagram({"wKh1", "wRd1", "bKh8", "bSd5"}, WHITE));
    std::vector<std::string> got;
    for (const std::string& m : legal_moves(g.pos)) got.push_back(without_removals(m));
    EXPECT_EQ(sorted(got), sorted({"Kh1-g1", "Kh1-g2", "Kh1-h2", "Rd1-a1", "Rd1-b1", "Rd1-c1", "Rd1-e1", "Rd1-f1",
                                   "Rd1-g1", "Rd1-d2", "Rd1-d3", "Rd1-d4", "Rd1*d5[+bSg8]"}));
}

// RULES.md s.5 "Atom Circe": "a unit already standing on its rebirth square is lost". W Kd1
// Pd2 Sb1, B Kh8 Rd8 Pc3: Sxc3 makes wPd2 (adjacent to c3, on its home square) disappear,
// opening the d-file to bRd8: illegal. d2xc3 is illegal already orthodox (pinned pawn).
TEST(HandAtom, AdjacentBlockerOnItsRebirthSquareIsLost) {
    const rebirth::Setup s = diagram({"wKd1", "wPd2", "wSb1", "bKh8", "bRd8", "bPc3"}, WHITE);
    const std::vector<std::string> quiet = {"Kd1-c1", "Kd1-c2", "Kd1-e1", "Kd1-e2", "d2-d3", "d2-d4", "Sb1-a3"};
    Game atom({{"Circe", {"Atom"}}}, s);
    EXPECT_EQ(legal_moves(atom.pos), sorted(quiet));
    // Control, plain Circe (RULES.md s.3): the capture is legal, the pawn reborn on c7.
    Game circe(kCirce, s);
    std::vector<std::string> with_capture = quiet;
    with_capture.push_back("Sb1*c3[+bPc7]");
    EXPECT_EQ(legal_moves(circe.pos), sorted(with_capture));
}

// RULES.md s.5 "Atom Circe": units next to the capture square, both colours, go to their own
// s.3 squares (computed from where they stand), kings excepted. W Ka1 Sb5 Pc5, B Ke7 Rd6 Sc6
// Be6: Sxd6 reborns the rook on h8 (d6 dark); next to d6: wPc5 -> c2, bSc6 (light) -> g8,
// bBe6 (light) -> c8; the king on e7 stays.
TEST(HandAtom, AdjacentUnitsRebornKingStays) {
    Game g({{"Circe", {"Atom"}}}, diagram({"wKa1", "wSb5", "wPc5", "bKe7", "bRd6", "bBe6", "bSc6"}, WHITE));
    UndoInfo u;
    const std::string text = play(g.pos, SQ_B5, SQ_D6, u);
    EXPECT_EQ(text.rfind("Sb5*d6[+bRh8]", 0), 0u) << text;
    EXPECT_EQ(units(g.pos), units({"wKa1", "wPc2", "wSd6", "bKe7", "bBc8", "bSg8", "bRh8"}));
}

// RULES.md s.5 "Atom Circe": "Units are handled in square order a1, b1, .., h8" and "a unit
// already standing on its rebirth square is lost". Black Sxc3 (the white knight, dark c3 ->
// g1); next to c3: wPb2 first (on its rebirth square: lost), then wPb3, whose square b2 is
// empty by then: it goes to b2.
TEST(HandAtom, AdjacentUnitsInSquareOrder) {
    Game g({{"Circe", {"Atom"}}}, diagram({"wKh1", "wSc3", "wPb2", "wPb3", "bKh8", "bSe4"}, BLACK));
    UndoInfo u;
    const std::string text = play(g.pos, SQ_E4, SQ_C3, u);
    EXPECT_EQ(text.rfind("Se4*c3[+wSg1]", 0), 0u) << text;
    EXPECT_EQ(units(g.pos), units({"wSg1", "wKh1", "wPb2", "bSc3", "bKh8"}));
}

// RULES.md s.5 "Alsatian Circe": Zeller, feenschach 1980, h#2 1.Kb7 Ba1 2.Ka8 b7#, where
// 3.Kxb7[+wPb2] is illegal (a wP on b2 behind a wB on a1 cannot arise in orthodox chess).
// A diagram consistent with the solution: W Kh3 Sc6 Bf6 Pb6, B Kc8, Black to move (help play
// starts with Black). Sc6 guards a7 and b8; after 2...b7+ only Kxb7 could escape.
TEST(HandAlsatian, ZellerHelpmateEndsInMate) {
    Game g({{"Circe", {"Alsatian"}}}, diagram({"wKh3", "wSc6", "wBf6", "wPb6", "bKc8"}, BLACK));
    std::vector<UndoInfo> u(4);
    EXPECT_EQ(play(g.pos, SQ_C8, SQ_B7, u[0]), "Kc8-b7");
    EXPECT_EQ(play(g.pos, SQ_F6, SQ_A1, u[1]), "Bf6-a1");
    EXPECT_EQ(play(g.pos, SQ_B7, SQ_A8, u[2]), "Kb7-a8");
    EXPECT_EQ(play(g.pos, SQ_B6, SQ_B7, u[3]), "b6-b7");
    EXPECT_EQ(units(g.pos), units({"wBa1", "wKh3", "wSc6", "wPb7", "bKa8"}));
    EXPECT_TRUE(g.pos.in_check());
    EXPECT_EQ(legal_moves(g.pos), std::vector<std::string>{});
}

// RULES.md s.5 "Alsatian Circe" on the final position of the Zeller solution, and the plain
// Circe control (s.3): there Kxb7[+wPb2] is the only legal move.
TEST(HandAlsatian, ZellerKingCaptureIllegalOnlyUnderAlsatian) {
    const rebirth::Setup s = diagram({"wKh3", "wSc6", "wBa1", "wPb7", "bKa8"}, BLACK);
    Game alsatian({{"Circe", {"Alsatian"}}}, s);
    EXPECT_EQ(legal_moves(alsatian.pos), std::vector<std::string>{});
    Game circe(kCirce, s);
    EXPECT_EQ(legal_moves(circe.pos), std::vector<std::string>{"Ka8*b7[+wPb2]"});
}
