// Tests of the Popeye input parser. Expected values come from the reference .inp files,
// their Popeye outputs (.out), index.jsonl, or Popeye's manual (py-engl.txt).

#include <gtest/gtest.h>

#include "test_util.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "rebirth/error.h"
#include "rebirth/perft.h"
#include "rebirth/popeye_input.h"
#include "rebirth/position.h"
#include "rebirth/rules.h"
#include "rebirth/text.h"
#include "rebirth/walk.h"

namespace fs = std::filesystem;
using namespace rebirth;

namespace {

using rebirth::test::read_text;

const fs::path kProblems = fs::path(REBIRTH_SHARED_DIR) / "reference" / "problems";

Problem load(const std::string& name) {
    const auto problems = parse_popeye_file((kProblems / (name + ".inp")).string());
    EXPECT_EQ(problems.size(), 1u) << name;
    return problems.at(0);
}

Problem parse_one(const std::string& text) {
    const auto problems = parse_popeye(text, "t.inp");
    EXPECT_EQ(problems.size(), 1u);
    return problems.at(0);
}

Piece at(const Problem& p, const char* sq) { return p.setup.board[parse_square(sq)]; }
Piece unit(Color c, Walk w, std::uint8_t flags = PF_NONE) { return make_piece(c, w, flags); }

int count(const std::array<Piece, SQUARE_NB>& board, Color c) {
    return static_cast<int>(
        std::count_if(board.begin(), board.end(), [c](Piece p) { return !p.empty() && p.color == c; }));
}

Bitboard bits(std::initializer_list<const char*> squares) {
    Bitboard b = 0;
    for (const char* s : squares) b |= square_bb(parse_square(s));
    return b;
}

// Expects parse_popeye(text) to throw an InputError naming t.inp, `line` and `word`.
void expect_error(const std::string& text, int line, const std::string& word) {
    try {
        parse_popeye(text, "t.inp");
        ADD_FAILURE() << "no error for:\n" << text;
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "t.inp");
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_EQ(e.word(), word) << e.what();
        EXPECT_NE(std::string(e.what()).find("t.inp"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
    }
}

}  // namespace

// Every reference input parses; its stipulation text, twin count and (from the .out
// header) the piece counts agree with what Popeye printed.
TEST(PopeyeInputReference, EveryInputParsesAndMatchesIndex) {
    std::map<std::string, nlohmann::json> index;
    std::ifstream idx(kProblems / "index.jsonl");
    for (std::string line; std::getline(idx, line);)
        if (!line.empty()) {
            auto j = nlohmann::json::parse(line);
            index[j["name"].get<std::string>()] = j;
        }
    int parsed = 0;
    for (const auto& entry : fs::directory_iterator(kProblems)) {
        if (entry.path().extension() != ".inp") continue;
        const std::string name = entry.path().stem().string();
        SCOPED_TRACE(name);
        std::vector<Problem> problems;
        ASSERT_NO_THROW(problems = parse_popeye_file(entry.path().string()));
        ASSERT_EQ(problems.size(), 1u);
        const Problem& p = problems[0];
        ++parsed;
        ASSERT_TRUE(index.count(name));
        const auto& j = index[name];
        EXPECT_EQ(p.stipulation.text, j["stipulation"].get<std::string>());
        EXPECT_EQ(p.twins.size(), j["twins"].get<size_t>());
        EXPECT_EQ(p.language, j["language"] == "de" ? Language::German : Language::English);
        for (size_t t = 1; t <= p.twins.size(); ++t) EXPECT_NO_THROW(apply_twin(p, t));

        // "  h#2                         3 + 1" under the board.
        const std::string out = read_text(kProblems / (name + ".out"));
        const std::regex counts("\n  (\\S+) +([0-9]+) \\+ ([0-9]+)\n");
        std::smatch m;
        if (p.options.no_board) continue;
        ASSERT_TRUE(std::regex_search(out, m, counts));
        EXPECT_EQ(m[1].str(), p.stipulation.text);
        EXPECT_EQ(std::stoi(m[2].str()), count(p.setup.board, WHITE));
        EXPECT_EQ(std::stoi(m[3].str()), count(p.setup.board, BLACK));
    }
    EXPECT_EQ(parsed, 66);
}

TEST(PopeyeInputReference, GermanPiecesConditionTwins) {
    const Problem p = load("BEISPIEL-cirpiece-01");
    EXPECT_EQ(p.language, Language::German);
    EXPECT_EQ(p.authors, std::vector<std::string>{"Torsten Lin\"s"});
    EXPECT_EQ(p.origin, "unver\"offentlicht");
    EXPECT_EQ(p.stipulation.text, "#2");
    EXPECT_EQ(p.stipulation.play, Stipulation::Play::Direct);
    EXPECT_EQ(p.stipulation.half_moves, 3);
    EXPECT_EQ(p.setup.side_to_move, WHITE);
    EXPECT_EQ(p.conditions, (std::vector<Condition>{{"Circe", {}}}));
    EXPECT_TRUE(p.options.variation);
    // weiss Kf2 Da7 Tb5 Lg8 Sb2c6 Bg3 / schwarz Ke4 Dh8 Tb6 Lc8f6 Sa3d2 Bd3d4d6g4g7h5
    EXPECT_EQ(at(p, "f2"), unit(WHITE, KING));
    EXPECT_EQ(at(p, "a7"), unit(WHITE, QUEEN));
    EXPECT_EQ(at(p, "b5"), unit(WHITE, ROOK));
    EXPECT_EQ(at(p, "g8"), unit(WHITE, BISHOP));
    EXPECT_EQ(at(p, "c6"), unit(WHITE, KNIGHT));
    EXPECT_EQ(at(p, "g3"), unit(WHITE, PAWN));
    EXPECT_EQ(at(p, "h8"), unit(BLACK, QUEEN));
    EXPECT_EQ(at(p, "f6"), unit(BLACK, BISHOP));
    EXPECT_EQ(at(p, "h5"), unit(BLACK, PAWN));
    EXPECT_EQ(count(p.setup.board, WHITE), 7);
    EXPECT_EQ(count(p.setup.board, BLACK), 13);
    ASSERT_EQ(p.twins.size(), 3u);
    const std::vector<std::vector<Condition>> twin_conditions{{{"Circe", {"Chameleon", "S", "B", "R", "Q", "S"}}},
                                                              {{"Circe", {"Clone"}}},
                                                              {{"Circe", {"Chameleon", "S", "Q", "R", "B", "S"}}}};
    for (size_t i = 0; i < 3; ++i) {
        ASSERT_EQ(p.twins[i].ops.size(), 1u);
        EXPECT_FALSE(p.twins[i].continued);
        EXPECT_EQ(p.twins[i].ops[0].kind, TwinOp::Kind::Condition);
        EXPECT_EQ(p.twins[i].ops[0].conditions, twin_conditions[i]);
        EXPECT_EQ(apply_twin(p, i + 1).conditions, twin_conditions[i]);
        EXPECT_EQ(apply_twin(p, i + 1).setup.board, p.setup.board);
    }
}

TEST(PopeyeInputReference, SeriesHelpStalemate) {
    const Problem p = load("BEISPIEL-assass-02");  // ford ser-h=10, bedi assassincirce
    EXPECT_TRUE(p.stipulation.series);
    EXPECT_EQ(p.stipulation.play, Stipulation::Play::Help);
    EXPECT_EQ(p.stipulation.goal, "=");
    EXPECT_EQ(p.stipulation.moves, 10);
    EXPECT_EQ(p.stipulation.half_moves, 11);  // ten black moves, then Ke5-d4 = in the .out
    EXPECT_EQ(p.setup.side_to_move, BLACK);
    EXPECT_EQ(p.conditions, (std::vector<Condition>{{"Circe", {"Assassin"}}}));
    EXPECT_EQ(at(p, "b2"), unit(WHITE, ROOK));
    EXPECT_EQ(at(p, "c6"), unit(WHITE, PAWN));
    EXPECT_EQ(at(p, "g4"), unit(BLACK, KING));
    EXPECT_EQ(p.authors, std::vector<std::string>{"?"});
}

TEST(PopeyeInputReference, ForsythRemarksProofGameAndCastling) {
    const Problem p = load("EXAMPLES-anticircesymm-01");
    EXPECT_EQ(p.stipulation.play, Stipulation::Play::ProofGame);
    EXPECT_EQ(p.stipulation.goal, "dia");
    EXPECT_EQ(p.stipulation.half_moves, 4);
    EXPECT_EQ(p.setup.side_to_move, WHITE);
    ASSERT_EQ(p.remarks.size(), 2u);
    EXPECT_EQ(p.remarks[0], "<<< rsbqkbsr/pppp1ppp/8/4p3/8/8/PPP1PPPP/RSBQKBSR/ Null  ");  // as in the .out
    EXPECT_EQ(p.remarks[1], ">>>");
    EXPECT_EQ(p.authors, std::vector<std::string>{"Stephen Emmerson"});
    EXPECT_EQ(p.origin, "Original");
    EXPECT_EQ(at(p, "e5"), unit(BLACK, PAWN));
    EXPECT_TRUE(at(p, "d2").empty());
    EXPECT_EQ(at(p, "g1"), unit(WHITE, KNIGHT));
    EXPECT_EQ(p.setup.castling, bits({"e1", "a1", "h1", "e8", "a8", "h8"}));
    EXPECT_EQ(p.conditions, (std::vector<Condition>{{"AntiCirce", {"Symmetry"}}}));
    ASSERT_EQ(p.twins.size(), 1u);
    EXPECT_EQ(apply_twin(p, 1).conditions, (std::vector<Condition>{{"AntiCirce", {"VerticalSymmetry"}}}));
}

TEST(PopeyeInputReference, ConditionSpellings) {
    EXPECT_EQ(load("EXAMPLES-lastcap-01").conditions,
              (std::vector<Condition>{{"Circe", {"Parrain", "LastCapture", "White", "Bg4"}}}));
    EXPECT_EQ(load("EXAMPLES-lastcap-03").conditions,
              (std::vector<Condition>{{"Circe", {"Parrain", "LastCapture", "White", "Sg4"}}}));
    EXPECT_EQ(load("TESTS-circe-25").conditions,
              (std::vector<Condition>{{"Circe", {"Chameleon", "S", "Q", "R", "B", "S"}},
                                      {"AntiCirce", {"Chameleon", "S", "R", "Q", "B", "S"}}}));
    EXPECT_EQ(load("TESTS-circe-21").conditions,
              (std::vector<Condition>{{"Circe", {"VerticalMirror", "RexInclusive"}}}));
    EXPECT_EQ(load("TESTS-anticirce-20").conditions, (std::vector<Condition>{{"AntiCirce", {"RexExclusive"}}}));
    EXPECT_EQ(load("TESTS-anticirce-14").conditions, (std::vector<Condition>{{"AntiCirce", {"Super", "Relaxed"}}}));
    EXPECT_EQ(load("EXAMPLES-antisup-03").conditions,
              (std::vector<Condition>{{"AntiCirce", {"Super"}}, {"Circe", {}}}));
    EXPECT_EQ(load("EXAMPLES-antimars-03").conditions, (std::vector<Condition>{{"AntiMarsCirce", {}}}));
    EXPECT_EQ(load("BEISPIEL-parrain-01").conditions, (std::vector<Condition>{{"Circe", {"Parrain"}}}));
    EXPECT_EQ(load("BEISPIEL-cirpiece-05").conditions, (std::vector<Condition>{{"Circe", {"Clone"}}}));
    EXPECT_EQ(load("BEISPIEL-cirpiece-03").conditions, (std::vector<Condition>{{"Circe", {"Chameleon"}}}));
    EXPECT_EQ(load("TESTS-circe-02").conditions, (std::vector<Condition>{{"AntiCirce", {"Diagram"}}}));
    EXPECT_EQ(load("TESTS-circe-07").conditions, (std::vector<Condition>{{"AntiCirce", {"Antipodes"}}}));
    EXPECT_EQ(load("TESTS-circe-10").conditions, (std::vector<Condition>{{"Circe", {"Assassin", "Mirror"}}}));
    EXPECT_EQ(load("TESTS-anticirce-08").conditions, (std::vector<Condition>{{"AntiCirce", {"Couscous"}}}));
    const auto mirror_file = load("TESTS-circe-06").conditions;  // mirrorfileanticirce
    ASSERT_EQ(mirror_file.size(), 1u);
    EXPECT_EQ(mirror_file[0].name, "AntiCirce");
    auto args = mirror_file[0].args;
    std::sort(args.begin(), args.end());
    EXPECT_EQ(args, (std::vector<std::string>{"File", "Mirror"}));
    const Problem pwc = load("REGRESSIONS-4_47_to_4_49-16");
    EXPECT_EQ(pwc.conditions, (std::vector<Condition>{{"Circe", {"PWC"}}}));
    // Twins: antisup chey; circe cage strict; circe parachute.
    EXPECT_EQ(apply_twin(load("EXAMPLES-antisup-06"), 1).conditions,
              (std::vector<Condition>{{"AntiCirce", {"Super", "Cheylan"}}}));
    EXPECT_EQ(apply_twin(load("TESTS-circe-20"), 1).conditions,
              (std::vector<Condition>{{"Circe", {"Cage", "Strict"}}}));
    const Problem volcanic = load("TESTS-circe-23");
    EXPECT_EQ(volcanic.conditions, (std::vector<Condition>{{"Circe", {"Volcanic"}}}));
    EXPECT_EQ(apply_twin(volcanic, 1).conditions, (std::vector<Condition>{{"Circe", {"Parachute"}}}));
}

TEST(PopeyeInputReference, OptionsFromFiles) {
    const Problem a = load("REGRESSIONS-4_47_to_4_49-09");  // opt set stoponsh; two pie commands
    EXPECT_TRUE(a.options.set_play);
    EXPECT_TRUE(a.options.stop_on_short_solutions);
    EXPECT_EQ(count(a.setup.board, WHITE), 3);
    EXPECT_EQ(count(a.setup.board, BLACK), 2);
    EXPECT_EQ(load("REGRESSIONS-4_47_to_4_49-10").options.max_solutions, 3);
    const Problem b = load("EXAMPLES-antimars-02");  // opt set var try
    EXPECT_TRUE(b.options.set_play && b.options.variation && b.options.try_play);
    const Problem c = load("BEISPIEL-assass-05");  // opti satz vari
    EXPECT_TRUE(c.options.set_play && c.options.variation);
    EXPECT_TRUE(load("BEISPIEL-parrain-01").options.no_white_king);  // option ohnewk
    EXPECT_TRUE(load("BEISPIEL-cirpiece-07").options.duplex);
    EXPECT_TRUE(load("EXAMPLES-antisup-02").options.half_duplex);
    const Problem d = load("EXAMPLES-antisup-01");  // opt var nothr
    EXPECT_TRUE(d.options.variation && d.options.no_threat);
    EXPECT_TRUE(load("REGRESSIONS-4_47_to_4_49-13").options.intelligent);
    EXPECT_TRUE(load("EXAMPLES-lastcap-02").options.no_board);
    const Problem e = load("BEISPIEL-parrain-07");  // varianten / verfuehrung on two lines
    EXPECT_TRUE(e.options.variation && e.options.try_play);
    const Problem f = load("TESTS-anticirce-19");
    EXPECT_TRUE(f.options.no_white_king && f.options.no_black_king);
}

TEST(PopeyeInputReference, SideToMove) {
    EXPECT_EQ(load("BEISPIEL-assass-01").setup.side_to_move, BLACK);    // h#2
    EXPECT_EQ(load("BEISPIEL-cirpiece-09").setup.side_to_move, WHITE);  // s#2
    EXPECT_EQ(load("EXAMPLES-antisup-02").setup.side_to_move, WHITE);   // ser-#4
    EXPECT_EQ(load("BEISPIEL-cirpiece-04").setup.side_to_move, BLACK);  // ser-h#4
    // h+1.5 with WhiteToPlay: Popeye prints the note and White plays 1...b4-b5 +.
    const Problem p = load("REGRESSIONS-4_47_to_4_49-06");
    EXPECT_EQ(p.setup.side_to_move, WHITE);
    EXPECT_EQ(p.stipulation.half_moves, 3);
    EXPECT_EQ(p.notes, std::vector<std::string>{"WhiteToPlay not applicable - ignored"});
    EXPECT_EQ(p.title, "option WhiteToPlay not applicable in help play");
    const Problem r = load("REGRESSIONS-4_47_to_4_49-01");  // r#2
    EXPECT_EQ(r.stipulation.play, Stipulation::Play::Reflex);
    EXPECT_EQ(r.setup.side_to_move, WHITE);
    EXPECT_EQ(at(r, "a2"), unit(WHITE, PAWN));
    EXPECT_EQ(at(r, "a3"), unit(WHITE, PAWN));
}

TEST(PopeyeInputReference, AToB) {
    const Problem p = load("REGRESSIONS-4_47_to_4_49-16");
    EXPECT_EQ(p.stipulation.play, Stipulation::Play::AToB);
    EXPECT_EQ(p.stipulation.half_moves, 1);
    ASSERT_TRUE(p.start_board.has_value());
    EXPECT_EQ((*p.start_board)[SQ_A7], unit(WHITE, ROOK));
    EXPECT_EQ((*p.start_board)[SQ_A8], unit(BLACK, ROOK));
    EXPECT_EQ(at(p, "a8"), unit(WHITE, ROOK));
    EXPECT_EQ(at(p, "a7"), unit(BLACK, ROOK));
    EXPECT_EQ(p.setup.side_to_move, BLACK);  // "=> (Black ->)" in the .out
    EXPECT_TRUE(p.options.duplex && p.options.no_white_king && p.options.no_black_king);
}

TEST(PopeyeInputReference, TwinTexts) {
    const Problem p = load("REGRESSIONS-4_81_to_4_83-06");  // twin move d8 e8 stipulation dia3
    ASSERT_EQ(p.twins.size(), 1u);
    ASSERT_EQ(p.twins[0].ops.size(), 2u);
    EXPECT_EQ(p.twins[0].ops[0].text, "bQd8-->e8");  // "b) bQd8-->e8  dia3" in the .out
    EXPECT_EQ(p.twins[0].ops[1].text, "dia3");
    const Problem b = apply_twin(p, 1);
    EXPECT_EQ(b.setup.board[SQ_E8], unit(BLACK, QUEEN));
    EXPECT_TRUE(b.setup.board[SQ_D8].empty());
    EXPECT_EQ(b.stipulation.text, "dia3");
    EXPECT_EQ(b.stipulation.half_moves, 6);
    EXPECT_EQ(p.stipulation.half_moves, 5);
    // pieces white Ke1 qd1 ra1h1 ... black Kf7 ... ra8h8: every K and R on its game-array
    // square keeps its right (RULES.md section 2), the black rooks too.
    EXPECT_EQ(p.setup.castling, bits({"e1", "a1", "h1", "a8", "h8"}));

    const Problem g = load("BEISPIEL-cirpiece-03");  // zwilling versetze b8 c8
    EXPECT_EQ(g.twins.at(0).ops.at(0).text, "sSb8-->c8");
    EXPECT_EQ(apply_twin(g, 1).setup.board[SQ_C8], unit(BLACK, KNIGHT));

    const Problem s = load("EXAMPLES-antisup-05");  // twin shift a1 a2
    EXPECT_EQ(s.twins.at(0).ops.at(0).text, "shift a1 ==> a2");
    const Problem s1 = apply_twin(s, 1);
    EXPECT_EQ(s1.setup.board[SQ_B8], unit(BLACK, BISHOP));
    EXPECT_EQ(s1.setup.board[SQ_C7], unit(WHITE, PAWN));
    EXPECT_EQ(count(s1.setup.board, WHITE) + count(s1.setup.board, BLACK), 2);

    const Problem t = load("EXAMPLES-antisup-01");  // twin stip =2
    EXPECT_EQ(t.twins.at(0).ops.at(0).text, "=2");
    EXPECT_EQ(apply_twin(t, 1).stipulation.goal, "=");
}

TEST(PopeyeInputLanguages, FrenchKeywordsAndPieces) {
    const Problem p = parse_one(
        "DebutProbleme\nauteur Jean Dupont\nsource Inedit\nenonce h#2\n"
        "pieces blanc rc1 dd1 fb2 cg1 pa2 noir ra8 tb8\n"
        "condition circe malefique\noption apparent sansrb\nFinProbleme\n");
    EXPECT_EQ(p.language, Language::French);
    EXPECT_EQ(p.authors, std::vector<std::string>{"Jean Dupont"});
    EXPECT_EQ(p.origin, "Inedit");
    EXPECT_EQ(at(p, "c1"), unit(WHITE, KING));
    EXPECT_EQ(at(p, "d1"), unit(WHITE, QUEEN));
    EXPECT_EQ(at(p, "b2"), unit(WHITE, BISHOP));
    EXPECT_EQ(at(p, "g1"), unit(WHITE, KNIGHT));
    EXPECT_EQ(at(p, "a2"), unit(WHITE, PAWN));
    EXPECT_EQ(at(p, "a8"), unit(BLACK, KING));
    EXPECT_EQ(at(p, "b8"), unit(BLACK, ROOK));
    EXPECT_EQ(p.conditions, (std::vector<Condition>{{"Circe", {"Mirror"}}}));
    EXPECT_TRUE(p.options.set_play);
    EXPECT_TRUE(p.options.no_white_king);
    EXPECT_EQ(p.setup.side_to_move, BLACK);
}

TEST(PopeyeInputLanguages, GermanKeywordsAbbreviated) {
    // The manual's example: "Anfa / Auto / Quel / Ford / Stei Weis ... / Opti / Ende".
    const Problem p = parse_one(
        "Anfa\nAuto    Unbekannt\nQuel    Ebenso\nFord    #2\nStei    Weis Ka3 Ta8\n\tSchw Kb1\n"
        "Opti    Verf Satz Vari\nBedi    SpiegelCirce\nZwil versetze a8 b8\nEnde\n");
    EXPECT_EQ(p.language, Language::German);
    EXPECT_EQ(at(p, "a3"), unit(WHITE, KING));
    EXPECT_EQ(at(p, "a8"), unit(WHITE, ROOK));
    EXPECT_EQ(at(p, "b1"), unit(BLACK, KING));
    EXPECT_TRUE(p.options.try_play && p.options.set_play && p.options.variation);
    EXPECT_EQ(p.conditions, (std::vector<Condition>{{"Circe", {"Mirror"}}}));
    EXPECT_EQ(p.twins.at(0).ops.at(0).text, "wTa8-->b8");
}

TEST(PopeyeInputLanguages, EnglishManualExample) {
    const Problem p = parse_one(
        "Begi\nAuth    Unknown\nOrig    Also Unkown\nStip    #2\n"
        "Piec    Whit Ka3 Ra8\n\tBlac Kb1\nOpti    Move Try Set Vari\nEndp\n");
    EXPECT_EQ(p.language, Language::English);
    EXPECT_EQ(p.authors, std::vector<std::string>{"Unknown"});
    EXPECT_EQ(p.origin, "Also Unkown");
    EXPECT_TRUE(p.options.try_play && p.options.set_play && p.options.variation);
    EXPECT_TRUE(p.options.move_numbers);
    EXPECT_TRUE(p.options.other.empty());
}

TEST(PopeyeInputKeywords, PrefixesAndExactMatches) {
    // "circe" is a prefix of CirceClone etc. but equals Circe; "Variation" is a prefix of
    // Variations; "pie" of Pieces; "cond" of Condition.
    const Problem p = parse_one(
        "beginproblem\nstip #2\npie white ka1 black ka8\ncond circe\n"
        "option Variation\nendproblem\n");
    EXPECT_EQ(p.conditions, (std::vector<Condition>{{"Circe", {}}}));
    EXPECT_TRUE(p.options.variation);
    // "t" names both Title and Twin.
    expect_error("beginproblem\nstip #2\npie white ka1 black ka8\nt x\nendproblem\n", 4, "t");
    // "no" names NoWk, NoBk, NoThreat, ...: in an option list it is no option, then no command.
    expect_error("beginproblem\nstip #2\npie white ka1 black ka8\nopt no\nendproblem\n", 4, "no");
}

TEST(PopeyeInputKeywords, SeveralProblemsAndAuthors) {
    const auto problems = parse_popeye(
        "BeginProblem\nauthor A One\nauthor B Two\nstip #1\npieces white ka1 qb2 black kh8\n"
        "NextProblem\nstip h#1\npieces white ka1 black kh8\nremark second\nEndProblem\n",
        "t.inp");
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_EQ(problems[0].authors, (std::vector<std::string>{"A One", "B Two"}));
    EXPECT_EQ(problems[0].where.line, 1);
    EXPECT_EQ(problems[1].where.line, 7);
    EXPECT_EQ(problems[1].stipulation.text, "h#1");
    EXPECT_EQ(problems[1].remarks, std::vector<std::string>{"second"});
    EXPECT_TRUE(problems[1].authors.empty());
}

TEST(PopeyeInputPieces, AttributesAndUnderworld) {
    const Problem p = parse_one(
        "BeginProblem\nstip #2\npieces white ka1 frischauf qd8 black royal kamikaze sh8 white pa2a3b4\n"
        "pieces black bc4 white rc4\nEndProblem\n");
    EXPECT_EQ(at(p, "d8"), unit(WHITE, QUEEN, PF_PROMOTED));
    EXPECT_EQ(at(p, "h8"), unit(BLACK, KNIGHT, PF_ROYAL | PF_KAMIKAZE));
    EXPECT_EQ(at(p, "a2"), unit(WHITE, PAWN));
    EXPECT_EQ(at(p, "a3"), unit(WHITE, PAWN));
    EXPECT_EQ(at(p, "b4"), unit(WHITE, PAWN));
    EXPECT_EQ(at(p, "c4"), unit(WHITE, ROOK));
    ASSERT_EQ(p.underworld.size(), 1u);
    EXPECT_EQ(p.underworld[0].square, SQ_C4);
    EXPECT_EQ(p.underworld[0].piece, unit(BLACK, BISHOP));
    const Problem g = parse_one("beginproblem\nstip h#2\npieces white gd4 nb1\nendproblem\n");
    EXPECT_EQ(at(g, "d4").walk, GRASSHOPPER);
    EXPECT_EQ(at(g, "b1").walk, NIGHTRIDER);
}

TEST(PopeyeInputOptions, CastlingAndEnPassant) {
    const Problem p = parse_one(
        "BeginProblem\nstip #2\npieces white ke1 ra1 rh1 black ke8 ra8 rh8 pd5\n"
        "option nocastling a1 h8\nEndProblem\n");
    EXPECT_EQ(p.setup.castling, bits({"e1", "h1", "e8", "a8"}));
    const Problem e =
        parse_one("BeginProblem\nstip #1\npieces white ke1 pe5 black ke8 pd5\noption enpassant d7d6d5\nEndProblem\n");
    EXPECT_EQ(e.setup.ep_square, SQ_D6);
    EXPECT_EQ(e.options.en_passant, (std::vector<Square>{SQ_D7, SQ_D6, SQ_D5}));
    const Problem e2 = parse_one(
        "BeginProblem\nstip #1\npieces white ke1 pe5 black ke8 pd5\noption enpassant d7 d6 d5 threat 2 defence 1\n"
        "EndProblem\n");
    EXPECT_EQ(e2.setup.ep_square, SQ_D6);
    EXPECT_EQ(e2.options.threat, 2);
    EXPECT_EQ(e2.options.defence, 1);
    const Problem n = parse_one("BeginProblem\nstip #2\npieces white kd1 ra1\nEndProblem\n");
    EXPECT_EQ(n.setup.castling, bits({"a1"}));  // the rook is on its square; the king is not
    EXPECT_EQ(n.setup.ep_square, SQ_NONE);
    const Problem protocol = parse_one("BeginProblem\nprotocol out.txt\nstip #2\npieces white ka1\nEndProblem\n");
    ASSERT_EQ(protocol.options.other.size(), 1u);
    EXPECT_NE(protocol.options.other[0].find("Protocol"), std::string::npos);
}

// Stipulations as py-engl.txt defines them; half-move counts follow the play they describe.
TEST(PopeyeInputStipulation, Forms) {
    struct Case {
        const char* in;
        const char* text;
        Stipulation::Play play;
        bool series, exact;
        int intro;
        const char* goal;
        int half_moves;
        double moves;
        Color side;
    };
    using P = Stipulation::Play;
    const Case cases[] = {
        {"#3", "#3", P::Direct, false, false, 0, "#", 5, 3, WHITE},
        {"=2", "=2", P::Direct, false, false, 0, "=", 3, 2, WHITE},
        {"==2", "==2", P::Direct, false, false, 0, "==", 3, 2, WHITE},
        {"x1", "x1", P::Direct, false, false, 0, "x", 1, 1, WHITE},
        {"+1", "+1", P::Direct, false, false, 0, "+", 1, 1, WHITE},
        {"~1", "~1", P::Direct, false, false, 0, "~", 1, 1, WHITE},
        {"H#2", "h#2", P::Help, false, false, 0, "#", 4, 2, BLACK},
        {"h#2.5", "h#2.5", P::Help, false, false, 0, "#", 5, 2.5, WHITE},
        {"h=3", "h=3", P::Help, false, false, 0, "=", 6, 3, BLACK},
        {"s#2", "s#2", P::Self, false, false, 0, "#", 4, 2, WHITE},
        {"S=3", "s=3", P::Self, false, false, 0, "=", 6, 3, WHITE},
        {"HS#3", "hs#3", P::HelpSelf, false, false, 0, "#", 6, 3, WHITE},
        {"r#2", "r#2", P::Reflex, false, false, 0, "#", 4, 2, WHITE},
        {"ser-#4", "ser-#4", P::Direct, true, false, 0, "#", 4, 4, WHITE},
        {"ser-h#4", "ser-h#4", P::Help, true, false, 0, "#", 5, 4, BLACK},
        {"ser-s#6", "ser-s#6", P::Self, true, false, 0, "#", 7, 6, WHITE},
        {"SER-=7", "ser-=7", P::Direct, true, false, 0, "=", 7, 7, WHITE},
        {"exact-h#3", "exact-h#3", P::Help, false, true, 0, "#", 6, 3, BLACK},
        {"2->ser-h#4", "2->ser-h#4", P::Help, true, false, 2, "#", 7, 4, WHITE},
        {"dia6.5", "dia6.5", P::ProofGame, false, false, 0, "dia", 13, 6.5, WHITE},
        {"ser-dia9", "ser-dia9", P::ProofGame, true, false, 0, "dia", 9, 9, WHITE},
        {"h##!4", "h##!4", P::Help, false, false, 0, "##!", 8, 4, BLACK},
        {"hzg74", "hzg74", P::Help, false, false, 0, "zg7", 8, 4, BLACK},
        // The rest of py-engl.txt's list of spellings and examples.
        {"#=2", "#=2", P::Direct, false, false, 0, "#=", 3, 2, WHITE},
        {"ser-!=7", "ser-!=7", P::Direct, true, false, 0, "!=", 7, 7, WHITE},
        {"h!#2", "h!#2", P::Help, false, false, 0, "!#", 4, 2, BLACK},
        {"h003", "h003", P::Help, false, false, 0, "00", 6, 3, BLACK},
        {"ser-%4", "ser-%4", P::Direct, true, false, 0, "%", 4, 4, WHITE},
        {"ep1", "ep1", P::Direct, false, false, 0, "ep", 1, 1, WHITE},
        {"h~1", "h~1", P::Help, false, false, 0, "~", 2, 1, BLACK},
        {"HR#3", "hr#3", P::HelpReflex, false, false, 0, "#", 6, 3, WHITE},
        {"R==3", "r==3", P::Reflex, false, false, 0, "==", 6, 3, WHITE},
        {"S+2", "s+2", P::Self, false, false, 0, "+", 4, 2, WHITE},
        {"SER-+7", "ser-+7", P::Direct, true, false, 0, "+", 7, 7, WHITE},
        {"SER-H##3", "ser-h##3", P::Help, true, false, 0, "##", 4, 3, BLACK},
        {"ser-ct10", "ser-ct10", P::Direct, true, false, 0, "ct", 10, 10, WHITE},
        {"h<>3", "h<>3", P::Help, false, false, 0, "<>", 6, 3, BLACK},
        {"ser-sctr2", "ser-sctr2", P::Self, true, false, 0, "ctr", 3, 2, WHITE},
        {"ser-h<>r5", "ser-h<>r5", P::Help, true, false, 0, "<>r", 6, 5, BLACK},
        {"c811", "c811", P::Direct, false, false, 0, "c81", 1, 1, WHITE},
        {"sKa74", "ska74", P::Self, false, false, 0, "ka7", 8, 4, WHITE},
        {"a=>b2", "a=>b2", P::AToB, false, false, 0, "a=>b", 4, 2, BLACK},  // help play, Black starts
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.in);
        // Popeye reads the number of moves from the next token when the stipulation's own
        // token ends before it ("dia 4", "h# 2.5"): both spellings give the same stipulation.
        const std::string in = c.in;
        const size_t digits = to_lower(in).find(c.goal) + std::string(c.goal).size();
        ASSERT_LT(digits, in.size());
        for (const std::string& spelled : {in, in.substr(0, digits) + " " + in.substr(digits)}) {
            SCOPED_TRACE(spelled);
            const std::string pieces = c.play == P::AToB ? "pieces white ka1\nstip " + spelled + "\npieces white ka2\n"
                                                         : "stip " + spelled + "\npieces white ka1\n";
            const Problem p = parse_one("beginproblem\n" + pieces + "endproblem\n");
            const Stipulation& s = p.stipulation;
            EXPECT_EQ(s.text, c.text);
            EXPECT_EQ(s.play, c.play);
            EXPECT_EQ(s.series, c.series);
            EXPECT_EQ(s.exact, c.exact);
            EXPECT_EQ(s.intro, c.intro);
            EXPECT_EQ(s.goal, c.goal);
            EXPECT_EQ(s.half_moves, c.half_moves);
            EXPECT_DOUBLE_EQ(s.moves, c.moves);
            EXPECT_EQ(p.setup.side_to_move, c.side);
        }
    }
    // German, with a blank before the number (Popeye accepts "forderung dia 4").
    const Problem de = parse_one("anfangproblem\nforderung dia 4\nsteine weiss ke1\nendeproblem\n");
    EXPECT_EQ(de.stipulation.text, "dia4");
    EXPECT_EQ(de.stipulation.half_moves, 8);
    // A blank and then no number is still an error naming the stipulation.
    EXPECT_THROW(parse_one("beginproblem\nstip h#\npieces white ka1\nendproblem\n"), InputError);
    // WhiteToPlay in help play with a whole number of moves: White starts (0.1.1...).
    const Problem w = parse_one("beginproblem\nstip h#2\npieces white ka1\noption whitetoplay\nendproblem\n");
    EXPECT_EQ(w.setup.side_to_move, WHITE);
    EXPECT_TRUE(w.notes.empty());
}

TEST(PopeyeInputTwins, BoardOperations) {
    const std::string head = "BeginProblem\nstip #2\npieces white ka1 rb2 black kh8 bg7\n";
    auto twin = [&](const std::string& ops) { return parse_one(head + ops + "\nEndProblem\n"); };

    // Rotate turns the board to the left: a1 -> h1, b2 -> g2, h8 -> a8, g7 -> b7.
    const Problem r = apply_twin(twin("twin rotate 90"), 1);
    EXPECT_EQ(r.setup.board[SQ_H1], unit(WHITE, KING));
    EXPECT_EQ(r.setup.board[SQ_G2], unit(WHITE, ROOK));
    EXPECT_EQ(r.setup.board[SQ_A8], unit(BLACK, KING));
    EXPECT_EQ(r.setup.board[SQ_B7], unit(BLACK, BISHOP));
    const Problem r180 = apply_twin(twin("twin rotate 180"), 1);
    EXPECT_EQ(r180.setup.board[SQ_H8], unit(WHITE, KING));
    EXPECT_EQ(r180.setup.board[SQ_A1], unit(BLACK, KING));
    const Problem r270 = apply_twin(twin("twin rotate 270"), 1);
    EXPECT_EQ(r270.setup.board[SQ_A8], unit(WHITE, KING));
    EXPECT_EQ(r270.setup.board[SQ_H1], unit(BLACK, KING));

    // Mirror: the square a1 (or a8) goes to.
    EXPECT_EQ(apply_twin(twin("twin mirror a1<-->h1"), 1).setup.board[SQ_H1], unit(WHITE, KING));
    EXPECT_EQ(apply_twin(twin("twin mirror a1<-->a8"), 1).setup.board[SQ_A8], unit(WHITE, KING));
    const Problem d = apply_twin(twin("twin mirror a1<-->h8"), 1);
    EXPECT_EQ(d.setup.board[SQ_H8], unit(WHITE, KING));
    EXPECT_EQ(d.setup.board[SQ_A1], unit(BLACK, KING));
    const Problem d2 = apply_twin(twin("twin mirror a8<-->h1"), 1);
    EXPECT_EQ(d2.setup.board[SQ_A1], unit(WHITE, KING));
    EXPECT_EQ(d2.setup.board[SQ_B2], unit(WHITE, ROOK));
    EXPECT_EQ(d2.setup.board[SQ_G7], unit(BLACK, BISHOP));

    const Problem x = twin("twin exchange b2 g7");
    EXPECT_EQ(apply_twin(x, 1).setup.board[SQ_B2], unit(BLACK, BISHOP));
    EXPECT_EQ(x.twins[0].ops[0].text, "wRb2<-->bBg7");
    const Problem rm = apply_twin(twin("twin remove g7"), 1);
    EXPECT_TRUE(rm.setup.board[SQ_G7].empty());
    const Problem add = apply_twin(twin("twin add black qd8 pe7"), 1);
    EXPECT_EQ(add.setup.board[SQ_D8], unit(BLACK, QUEEN));
    EXPECT_EQ(add.setup.board[SQ_E7], unit(BLACK, PAWN));
    const Problem sub = apply_twin(twin("twin substitute r q"), 1);
    EXPECT_EQ(sub.setup.board[SQ_B2], unit(WHITE, QUEEN));
    const Problem pol = apply_twin(twin("twin polishtype"), 1);
    EXPECT_EQ(pol.setup.board[SQ_A1], unit(BLACK, KING));
    const Problem sh = apply_twin(twin("twin remove h8 shift a1 b1"), 1);
    EXPECT_EQ(sh.setup.board[SQ_B1], unit(WHITE, KING));
    EXPECT_EQ(sh.setup.board[SQ_C2], unit(WHITE, ROOK));
    EXPECT_EQ(sh.setup.board[SQ_H7], unit(BLACK, BISHOP));
    EXPECT_THROW(twin("twin shift a1 a2"), InputError);  // h8 would leave the board

    // Continued twins build on the previous twin, others on the diagram.
    const Problem c = twin("twin move b2 c2\ntwin continued move c2 d2\ntwin remove b2");
    EXPECT_TRUE(c.twins[1].continued);
    EXPECT_EQ(apply_twin(c, 2).setup.board[SQ_D2], unit(WHITE, ROOK));
    EXPECT_TRUE(apply_twin(c, 2).setup.board[SQ_B2].empty());
    EXPECT_TRUE(apply_twin(c, 3).setup.board[SQ_B2].empty());
    EXPECT_TRUE(apply_twin(c, 3).setup.board[SQ_C2].empty());
    EXPECT_EQ(apply_twin(c, 0).setup.board, c.setup.board);
    EXPECT_THROW(apply_twin(c, 4), std::out_of_range);

    // Stipulation and condition twins; the side to move follows the new stipulation.
    const Problem s = twin("twin stipulation h#2 condition anticirce cheylan");
    const Problem s1 = apply_twin(s, 1);
    EXPECT_EQ(s1.stipulation.text, "h#2");
    EXPECT_EQ(s1.setup.side_to_move, BLACK);
    EXPECT_EQ(s1.conditions, (std::vector<Condition>{{"AntiCirce", {"Cheylan"}}}));
}

TEST(PopeyeInputConditions, CompoundsAndOurQualifiers) {
    auto conds = [](const std::string& c) {
        return parse_one("beginproblem\nstip #2\npieces white ka1\ncondition " + c + "\nendproblem\n").conditions;
    };
    EXPECT_EQ(conds("circeassassin"), (std::vector<Condition>{{"Circe", {"Assassin"}}}));
    const Problem de = parse_one(
        "AnfangProblem\nforderung #2\nsteine weiss ka1\nbedingung assassincirce\n"
        "zwilling bedingung circe kaefig strikt rexinklusive\nEndeProblem\n");
    EXPECT_EQ(de.conditions, (std::vector<Condition>{{"Circe", {"Assassin"}}}));
    EXPECT_EQ(apply_twin(de, 1).conditions, (std::vector<Condition>{{"Circe", {"Cage", "Strict", "RexInclusive"}}}));
    EXPECT_EQ(conds("circeclone"), (std::vector<Condition>{{"Circe", {"Clone"}}}));
    EXPECT_EQ(conds("antisup"), (std::vector<Condition>{{"AntiCirce", {"Super"}}}));
    EXPECT_EQ(conds("pwc"), (std::vector<Condition>{{"Circe", {"PWC"}}}));
    EXPECT_EQ(conds("marscirce"), (std::vector<Condition>{{"MarsCirce", {}}}));
    EXPECT_EQ(conds("antimarscirce"), (std::vector<Condition>{{"AntiMarsCirce", {}}}));
    EXPECT_EQ(conds("anticirce cheylan"), (std::vector<Condition>{{"AntiCirce", {"Cheylan"}}}));
    EXPECT_EQ(conds("circe ultra"), (std::vector<Condition>{{"Circe", {"Ultra"}}}));
    EXPECT_EQ(conds("circe kamikaze hydra atom alsatian"),
              (std::vector<Condition>{{"Circe", {"Kamikaze", "Hydra", "Atom", "Alsatian"}}}));
    for (const char* v : {"Strict", "Volcanic", "Parachute", "Cage", "Symmetry", "Antipodes", "Equipollents",
                          "Couscous", "Diametral", "Diagram", "Take&Make", "Super", "Frischauf", "Parrain",
                          "ContraParrain", "File", "Mirror", "April", "Turncoats"})
        EXPECT_EQ(conds(std::string("circe ") + v), (std::vector<Condition>{{"Circe", {v}}})) << v;
    EXPECT_EQ(conds("circe take&make"), (std::vector<Condition>{{"Circe", {"Take&Make"}}}));
    EXPECT_EQ(conds("AprilChess Q R"),
              (std::vector<Condition>{{"Circe", {"Super", "StrictByDefault", "April", "Q", "R"}}}));
}

TEST(PopeyeInputErrors, ForsythErrorsNameFileAndLine) {
    try {
        parse_popeye("BeginProblem\nstip #2\nforsyth 8/8/8/8/8/8/8/9/\nEndProblem\n", "t.inp");
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "t.inp");
        EXPECT_EQ(e.line(), 3);
    }
}

TEST(PopeyeInputErrors, EachKindNamesFileLineAndWord) {
    const std::string ok_head = "BeginProblem\nstip #2\n";
    expect_error(ok_head + "pieces white ka1\nfrobnicate\nEndProblem\n", 4, "frobnicate");        // unknown keyword
    expect_error(ok_head + "pieces white ka1 qa9\nEndProblem\n", 3, "qa9");                       // bad square
    expect_error(ok_head + "pieces white ka1\n  black xd4\nEndProblem\n", 4, "xd4");              // unknown walk
    expect_error(ok_head + "pieces green ka1\nEndProblem\n", 3, "green");                         // unknown colour
    expect_error(ok_head + "pieces white ka1 ka2\n black ke8 zzz ke7\nEndProblem\n", 4, "zzz");   // attribute
    expect_error(ok_head + "pieces ka1\nEndProblem\n", 3, "ka1");                                 // colour missing
    expect_error(ok_head + "pieces white ka1\noption maxsol x3\nEndProblem\n", 4, "x3");          // malformed number
    expect_error(ok_head + "pieces white ka1\noption threat\n", 4, "threat");                     // number missing
    expect_error(ok_head + "pieces white ka1\ncondition circe\n", 4, "EndProblem");               // missing end
    expect_error(ok_head + "pieces white ka1\ncondition foocirce\nEndProblem\n", 4, "foocirce");  // unknown cond
    expect_error(ok_head + "pieces white ka1\ncondition madrasi\nEndProblem\n", 4, "madrasi");    // unsupported
    expect_error("BeginProblem\nstip #x\npieces white ka1\nEndProblem\n", 2, "#x");               // bad stipulation
    expect_error("BeginProblem\nstip q2\npieces white ka1\nEndProblem\n", 2, "q2");               // unknown goal
    expect_error("BeginProblem\nstip #2.5\npieces white ka1\nEndProblem\n", 2, "#2.5");           // .5 not help
    expect_error("BeginProblem\nsstip white 5s[#]\nEndProblem\n", 2, "sstip");                    // SStipulation
    expect_error("author x\nBeginProblem\n", 1, "author");                                        // no BeginProblem
    expect_error(ok_head + "pieces white ka1\ntwin move a9 b2\nEndProblem\n", 4, "a9");           // twin square
    expect_error(ok_head + "pieces white ka1\ntwin rotate 45\nEndProblem\n", 4, "45");            // rotation
    expect_error(ok_head + "pieces white ka1\ntwin move c3 c4\nEndProblem\n", 4, "c3");           // empty square
    expect_error(ok_head + "pieces white ka1\ntwin frob\nEndProblem\n", 4, "frob");               // twin keyword
    expect_error(ok_head + "pieces white ka1\ntwin mirror a1-h1\nEndProblem\n", 4, "a1-h1");      // mirror axis
    expect_error(ok_head + "pieces neutral ka1\nEndProblem\n", 3, "neutral");                     // neutral
    expect_error(ok_head + "pieces white paralysing ka1\nEndProblem\n", 3, "paralysing");         // attribute
    expect_error("BeginProblem\npieces white ka1\nEndProblem\n", 3, "Stipulation");               // no stipulation
    expect_error(ok_head + "pieces white ka1\noption enpassant d7d6\nEndProblem\n", 4, "enpassant");
    expect_error("", 1, "BeginProblem");  // empty input
    expect_error("AnfangProblem\nforderung #2\nsteine weiss ka1\nbedingung circe\nauthor x\nEndeProblem\n", 5,
                 "author");  // English keyword in a German problem
}

// Popeye 4.104 reads no qualifier after a traditional condition name but the Rex word some of
// them take (RexInclusive after Circe's names, RexExclusive after Mars and Anti-Mars Circe's),
// Calvet or Cheylan after Anti-Circe's, and the walks of ChameleonCirce and AprilChess; it
// reports any other word as an input error and solves without it ("SuperCirce Turncoats" is
// plain Super Circe there). rebirth refuses such a word, naming it.
TEST(PopeyeInputErrors, TraditionalNamesTakeOnlyPopeyesQualifiers) {
    const std::string head = "BeginProblem\nstip #2\npieces white ka1\ncondition ";
    expect_error(head + "SuperCirce Turncoats\nEndProblem\n", 4, "Turncoats");
    expect_error(head + "SuperCirce RexInclusive\nEndProblem\n", 4, "RexInclusive");
    expect_error(head + "CirceTurncoats Mirror\nEndProblem\n", 4, "Mirror");
    expect_error(head + "CirceDoubleAgents RexExclusive\nEndProblem\n", 4, "RexExclusive");
    expect_error(head + "MarsMirrorCirce RexInclusive\nEndProblem\n", 4, "RexInclusive");
    expect_error(head + "AntiCloneCirce Cheylan\nEndProblem\n", 4, "Cheylan");
    expect_error(head + "ChameleonCirce Q R Strict\nEndProblem\n", 4, "Strict");
    auto conds = [&](const std::string& c) { return parse_one(head + c + "\nEndProblem\n").conditions; };
    EXPECT_EQ(conds("CirceDoubleAgents RexInclusive"),
              (std::vector<Condition>{{"Circe", {"Turncoats", "Mirror", "RexInclusive"}}}));
    EXPECT_EQ(conds("MarsMirrorCirce RexExclusive"),
              (std::vector<Condition>{{"MarsCirce", {"Mirror", "RexExclusive"}}}));
    EXPECT_EQ(conds("AntiSuperCirce Cheylan"), (std::vector<Condition>{{"AntiCirce", {"Super", "Cheylan"}}}));
    EXPECT_EQ(conds("ChameleonCirce Q R"), (std::vector<Condition>{{"Circe", {"Chameleon", "Q", "R"}}}));
    // The base family words take every qualifier.
    EXPECT_EQ(conds("Circe Super Turncoats"), (std::vector<Condition>{{"Circe", {"Super", "Turncoats"}}}));
    EXPECT_EQ(conds("Circe April S B"), (std::vector<Condition>{{"Circe", {"April", "S", "B"}}}));
}

// Robustness: every reference input cut after each character either parses or throws
// InputError; nothing else escapes and nothing crashes.
TEST(PopeyeInputErrors, TruncatedInputsNeverCrash) {
    int errors = 0;
    for (const auto& entry : fs::directory_iterator(kProblems)) {
        if (entry.path().extension() != ".inp") continue;
        const std::string text = read_text(entry.path());
        for (size_t cut = 0; cut < text.size(); ++cut) {
            try {
                const auto problems = parse_popeye(std::string_view(text).substr(0, cut), "cut.inp");
                for (const Problem& p : problems)
                    for (size_t t = 1; t <= p.twins.size(); ++t) (void)apply_twin(p, t);
            } catch (const InputError& e) {
                ++errors;
                EXPECT_EQ(e.file(), "cut.inp");
                EXPECT_GE(e.line(), 1);
            }
        }
    }
    EXPECT_GT(errors, 0);
}

// ---------------------------------------------------------------------------------------
// Recovery (ParseMode::Recover): bad input inside one problem is recorded for it and the
// parser goes on after that problem's NextProblem / EndProblem.

namespace {

// Problems 1 and 3 of the recovery files, as they parse on their own.
const std::string kFirstBody = "Stipulation #1\nPieces White Kg6 Ra1 Black Kh8\n";
const std::string kThirdBody = "Stipulation #1\nPieces White Kb6 Rh2 Black Ka8\nOption NoBoard\n";

// Expects `got` to be the problem `body` parses to on its own (an English file), untouched
// by a broken problem before or after it, and starting at `line`.
void expect_intact(const Problem& got, const std::string& body, int line) {
    const Problem alone = parse_one("BeginProblem\n" + body + "EndProblem\n");
    EXPECT_FALSE(got.error) << got.error->what();
    EXPECT_EQ(got.where.line, line);
    EXPECT_EQ(got.setup, alone.setup);
    EXPECT_EQ(got.stipulation.text, alone.stipulation.text);
    EXPECT_EQ(got.stipulation.half_moves, alone.stipulation.half_moves);
    EXPECT_EQ(got.conditions, alone.conditions);
    EXPECT_EQ(got.options.no_board, alone.options.no_board);
    EXPECT_EQ(got.twins.size(), alone.twins.size());
}

// The three-problem file with `middle` as problem 2 (its first line is line 5).
std::string three_problems(const std::string& middle) {
    return "BeginProblem\n" + kFirstBody + "NextProblem\n" + middle + "NextProblem\n" + kThirdBody + "EndProblem\n";
}

// Line of the NextProblem that ends problem 2 in three_problems(middle); problem 3 starts
// (Problem::where) on the line after it.
int second_end(const std::string& middle) {
    return 5 + static_cast<int>(std::count(middle.begin(), middle.end(), '\n'));
}

}  // namespace

TEST(PopeyeInputRecovery, MiddleProblemErrorIsRecordedAndTheOthersAreIntact) {
    struct Case {
        const char* what;
        std::string middle;  // problem 2, from line 5
        int line;            // line and word of its error
        std::string word;
    };
    const std::vector<Case> cases{
        {"unknown keyword", "stip #2\npieces white ka1 black kc3\nfrobnicate\n", 7, "frobnicate"},
        {"bad square", "stip #2\npieces white ka1 qa9 black kc3\n", 6, "qa9"},
        {"unknown walk", "stip #2\npieces white ka1\n  black kc3 xd4\n", 7, "xd4"},
        {"impossible stipulation", "stip #2.5\npieces white ka1 black kc3\n", 5, "#2.5"},
        {"unknown goal", "pieces white ka1 black kc3\nstip q2\n", 6, "q2"},
        {"unsupported stipulation", "stip semi-r#2\npieces white ka1 black kc3\n", 5, "semi-r#2"},
        {"unknown option", "stip #2\npieces white ka1 black kc3\noption frobnicate\n", 7, "frobnicate"},
        {"malformed option number", "stip #2\noption maxsol x3\npieces white ka1 black kc3\n", 6, "x3"},
        {"unsupported condition", "stip #2\ncondition madrasi\npieces white ka1 black kc3\n", 6, "madrasi"},
        {"unsupported command", "sstip white 5s[#]\npieces white ka1 black kc3\n", 5, "sstip"},
        {"neutral unit", "stip #2\npieces neutral ka1\n", 6, "neutral"},
        {"twin onto an empty square", "stip #2\npieces white ka1 black kc3\ntwin move c4 c5\n", 7, "c4"},
        {"missing stipulation", "pieces white ka1 black kc3\n", 6, "Stipulation"},
        {"BeginProblem inside", "stip #2\nBeginProblem\npieces white ka1 black kc3\n", 6, "BeginProblem"},
        // Problem words after the error are skipped, not read as keywords.
        {"remark after the error", "stip #2\nfrob\nremark Next End\nauthor E. Nd\npieces white ka1\n", 6, "frob"},
        {"stipulation and pieces after the error", "frob\nstip #2\npieces white ka1 black kc3\n", 5, "frob"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        const std::string text = three_problems(c.middle);
        std::vector<Problem> problems;
        ASSERT_NO_THROW(problems = parse_popeye(text, "t.inp", ParseMode::Recover));
        ASSERT_EQ(problems.size(), 3u);
        expect_intact(problems[0], kFirstBody, 1);
        expect_intact(problems[2], kThirdBody, second_end(c.middle) + 1);
        const Problem& bad = problems[1];
        EXPECT_EQ(bad.where.line, 5);
        ASSERT_TRUE(bad.error);
        EXPECT_EQ(bad.error->file(), "t.inp");
        EXPECT_EQ(bad.error->line(), c.line) << bad.error->what();
        EXPECT_EQ(bad.error->word(), c.word) << bad.error->what();
        // The strict parse stops at the same error.
        expect_error(text, c.line, c.word);
    }
}

// The end of the broken problem can be the word its error names ("stip NextProblem"): it
// still ends that problem, and the next problem is read.
TEST(PopeyeInputRecovery, ProblemEndTakenAsAnArgumentStillEndsTheProblem) {
    for (const std::string& middle : {std::string("pieces white ka1 black kc3\nstip\n"),
                                      std::string("stip #2\npieces white ka1 black kc3\noption threat\n"),
                                      std::string("stip #2\npieces white ka1 black kc3\ntwin\n")}) {
        SCOPED_TRACE(middle);
        const auto problems = parse_popeye(three_problems(middle), "t.inp", ParseMode::Recover);
        ASSERT_EQ(problems.size(), 3u);
        ASSERT_TRUE(problems[1].error);
        EXPECT_EQ(problems[1].error->word(), "NextProblem");
        EXPECT_EQ(problems[1].error->line(), second_end(middle));
        expect_intact(problems[0], kFirstBody, 1);
        expect_intact(problems[2], kThirdBody, second_end(middle) + 1);
    }
}

// The last problem broken: the problems before it are intact, EndProblem ends the file.
TEST(PopeyeInputRecovery, LastProblemBroken) {
    const auto problems =
        parse_popeye("BeginProblem\n" + kFirstBody + "NextProblem\nstip #2\npieces white ka1 zz9\nEndProblem\n",
                     "t.inp", ParseMode::Recover);
    ASSERT_EQ(problems.size(), 2u);
    expect_intact(problems[0], kFirstBody, 1);
    ASSERT_TRUE(problems[1].error);
    EXPECT_EQ(problems[1].error->line(), 6);
    EXPECT_EQ(problems[1].error->word(), "zz9");
}

// German and French files: the broken problem ends at WeiteresProblem / ASuivre, the file at
// EndeProblem / FinProbleme; English keywords in them are errors.
TEST(PopeyeInputRecovery, GermanAndFrenchKeywordsEndTheBrokenProblem) {
    const auto de = parse_popeye(
        "AnfangProblem\nForderung #1\nSteine Weiss Kg6 Ta1 Schwarz Kh8\nWeiteresProblem\n"
        "Forderung #2\nPieces White Ka1\nWeiteresProblem\n"
        "Forderung #1\nSteine Weiss Kb6 Th2 Schwarz Ka8\nEndeProblem\n",
        "t.inp", ParseMode::Recover);
    ASSERT_EQ(de.size(), 3u);
    EXPECT_FALSE(de[0].error);
    ASSERT_TRUE(de[1].error);
    EXPECT_EQ(de[1].error->line(), 6);
    EXPECT_EQ(de[1].error->word(), "Pieces");
    EXPECT_FALSE(de[2].error);
    EXPECT_EQ(de[2].where.line, 8);
    EXPECT_EQ(at(de[2], "h2"), unit(WHITE, ROOK));
    EXPECT_EQ(de[2].stipulation.text, "#1");

    const auto fr = parse_popeye(
        "DebutProbleme\nEnonce #1\nPieces Blanc Rg6 Ta1 Noir Rh8\nASuivre\n"
        "Enonce #2\nPieces Blanc Ra1 Xb2\nASuivre\n"
        "Enonce #1\nPieces Blanc Rb6 Th2 Noir Ra8\nFinProbleme\n",
        "t.inp", ParseMode::Recover);
    ASSERT_EQ(fr.size(), 3u);
    EXPECT_FALSE(fr[0].error);
    ASSERT_TRUE(fr[1].error);
    EXPECT_EQ(fr[1].error->line(), 6);
    EXPECT_EQ(fr[1].error->word(), "Xb2");
    EXPECT_FALSE(fr[2].error);
    EXPECT_EQ(at(fr[2], "a8"), unit(BLACK, KING));
}

// Errors that make the file unusable still throw in recovering mode.
TEST(PopeyeInputRecovery, FileErrorsStillThrow) {
    auto expect_throw = [](const std::string& text, int line, const std::string& word) {
        try {
            parse_popeye(text, "t.inp", ParseMode::Recover);
            ADD_FAILURE() << "no error for:\n" << text;
        } catch (const InputError& e) {
            EXPECT_EQ(e.line(), line) << e.what();
            EXPECT_EQ(e.word(), word) << e.what();
        }
    };
    expect_throw("", 1, "BeginProblem");                           // empty input
    expect_throw("author x\nBeginProblem\n", 1, "author");         // no BeginProblem
    expect_throw("BeginProblem\n" + kFirstBody, 3, "EndProblem");  // no EndProblem
    expect_throw("BeginProblem\n" + kFirstBody + "NextProblem\n", 4, "EndProblem");
    // The broken last problem runs to the end of the file without EndProblem.
    expect_throw("BeginProblem\n" + kFirstBody + "NextProblem\nstip #2\nfrob\npieces white ka1\n", 7, "EndProblem");
    EXPECT_THROW(parse_popeye_file("/nonexistent/rebirth/x.inp", ParseMode::Recover), InputError);
}

// Robustness of recovery: every reference input cut after each character, with a good
// problem after it, either parses (a problem without error has checked twins) or throws
// InputError; nothing else escapes and nothing crashes.
TEST(PopeyeInputRecovery, TruncatedInputsNeverCrash) {
    int recovered = 0;
    for (const auto& entry : fs::directory_iterator(kProblems)) {
        if (entry.path().extension() != ".inp") continue;
        const std::string text = read_text(entry.path());
        const std::string tail = "\nNextProblem\n" + kThirdBody + "EndProblem\n";
        for (size_t cut = 0; cut < text.size(); cut += 3) {
            try {
                const auto problems = parse_popeye(text.substr(0, cut) + tail, "cut.inp", ParseMode::Recover);
                for (const Problem& p : problems) {
                    if (p.error) {
                        ++recovered;
                        EXPECT_EQ(p.error->file(), "cut.inp");
                        EXPECT_GE(p.error->line(), 1);
                        continue;
                    }
                    for (size_t t = 1; t <= p.twins.size(); ++t) (void)apply_twin(p, t);
                }
            } catch (const InputError& e) {
                EXPECT_EQ(e.file(), "cut.inp");
                EXPECT_GE(e.line(), 1);
            }
        }
    }
    EXPECT_GT(recovered, 0);
}

namespace {

const fs::path kFuzzRegressions = fs::path(REBIRTH_SOURCE_DIR) / "tests" / "fuzz" / "popeye_input" / "regressions";

// The error of setting up the diagram of the single problem of regression input `name`
// with its rules, as `rebirth solve` does; a failure when the diagram is accepted.
InputError diagram_error(const std::string& name) {
    const auto problems = parse_popeye_file((kFuzzRegressions / name).string());
    EXPECT_EQ(problems.size(), 1u) << name;
    const Problem& p = problems.at(0);
    const RuleSet rules = resolve_rules(p.conditions, p.where.file, p.condition_line);
    SetupRules setup_rules;
    setup_rules.require_white_king = !p.options.no_white_king;
    setup_rules.require_black_king = !p.options.no_black_king;
    setup_rules.rules = &rules;
    try {
        Position pos(p.setup, setup_rules, p.where.file);
    } catch (const InputError& e) {
        return e;
    }
    ADD_FAILURE() << name << ": the diagram was accepted";
    return InputError("", 0, "", "");
}

}  // namespace

// More units than the buried list holds (32) under Circe Volcanic: the fuzzer's crash was
// "internal error: too many buried units" thrown by 1.Sb1*c3 in the move generator.
TEST(PopeyeInputFuzzRegressions, VolcanicUnitsBeyondTheBuriedListAreRefused) {
    const InputError e = diagram_error("volcanic_underworld_overflow.inp");
    EXPECT_EQ(e.word(), "36");
    EXPECT_EQ(e.reason(), "Circe Volcanic/Parachute: rebirth handles at most 32 units, the diagram has");
}

// The same under Anti-Circe Volcanic, where burying the capturer wrote past the buried list
// (a segmentation fault in `rebirth solve`).
TEST(PopeyeInputFuzzRegressions, AntiCirceVolcanicUnitsBeyondTheBuriedListAreRefused) {
    const InputError e = diagram_error("anticirce_volcanic_underworld_overflow.inp");
    EXPECT_EQ(e.word(), "35");
    EXPECT_EQ(e.reason(), "Circe Volcanic/Parachute: rebirth handles at most 32 units, the diagram has");
}

// A second king below the board (Pieces giving Ke1 twice under Volcanic) erupted as soon
// as the first one moved: two white kings (found by the fuzzer through the consistency check).
TEST(PopeyeInputFuzzRegressions, KingBelowTheBoardIsASecondKing) {
    const InputError e = diagram_error("volcanic_buried_king.inp");
    EXPECT_EQ(e.word(), "white king");
    EXPECT_EQ(e.reason(), "more than one white king in the position:");
}

// Every input the fuzzer once failed on, run as fuzz_popeye_input runs it: parsed with
// recovery, each twin set up with its rules and played one ply with the consistency check.
// Only InputError may escape.
TEST(PopeyeInputFuzzRegressions, RegressionInputsEndInInputError) {
    int inputs = 0;
    for (const auto& entry : fs::directory_iterator(kFuzzRegressions)) {
        if (!entry.is_regular_file() || entry.path().filename() == ".gitkeep") continue;
        ++inputs;
        std::vector<Problem> problems;
        try {
            problems = parse_popeye(read_text(entry.path()), "fuzz.inp", ParseMode::Recover);
        } catch (const InputError&) {
            continue;
        }
        for (const Problem& p : problems) {
            if (p.error) continue;
            for (size_t t = 0; t <= p.twins.size(); ++t) {
                try {
                    const Problem tw = apply_twin(p, t);
                    const RuleSet rules = resolve_rules(tw.conditions, tw.where.file, tw.condition_line);
                    SetupRules setup_rules;
                    setup_rules.require_white_king = !tw.options.no_white_king;
                    setup_rules.require_black_king = !tw.options.no_black_king;
                    setup_rules.rules = &rules;
                    Position pos(tw.setup, setup_rules, tw.where.file);
                    perft_checked(pos, 1);
                } catch (const InputError&) {
                }
            }
        }
    }
    EXPECT_GT(inputs, 0);
}

// Options that change what a solution is and that rebirth does not implement are refused,
// naming the option (issue 10: a problem rebirth does not support is refused clearly).
TEST(PopeyeInputOptions, UnimplementedSolutionOptionsAreRefused) {
    expect_error("beginproblem\nstip s#3\npieces white ka1 black ka8\noption nontrivial 0 1\nendproblem\n", 4,
                 "nontrivial");
    expect_error("beginproblem\nstip #3\npieces white ka1 black ka8\noption keepmating\nendproblem\n", 4, "keepmating");
    expect_error("beginproblem\nstip #3\npieces white ka1 black ka8\noption goalisend\nendproblem\n", 4, "goalisend");
    expect_error("beginproblem\nstip #3\npieces white ka1 black ka8\noption startmove 3\nendproblem\n", 4, "startmove");
    // Intelligent with a number: Popeye then prints only that many solutions per position.
    expect_error("beginproblem\nstip h#3\npieces white ka1 black ka8\noption intelligent 2\nendproblem\n", 4, "2");
    // MaxFlightsquares is implemented (data/popeye OPTIONS_*_flights*); its number is required.
    EXPECT_EQ(
        parse_popeye("beginproblem\nstip #3\npieces white ka1 black ka8\noption maxflight 2\nendproblem\n", "t.inp")
            .at(0)
            .options.max_flights,
        std::optional<int>(2));
    expect_error("beginproblem\nstip #3\npieces white ka1 black ka8\noption maxflight\nendproblem\n", 5, "endproblem");
    // Plain Intelligent is a hint (the same solutions).
    EXPECT_NO_THROW(
        parse_popeye("beginproblem\nstip h#3\npieces white ka1 black ka8\noption intelligent\nendproblem\n", "t.inp"));
}

// PostKeyPlay and Quodlibet are read; where Popeye finds them not applicable it says so.
TEST(PopeyeInputOptions, PostKeyAndQuodlibet) {
    const Problem s =
        parse_popeye("beginproblem\nstip s#2\npieces white ka1 black ka8\noption postkey quodlibet\nendproblem\n",
                     "t.inp")
            .at(0);
    EXPECT_TRUE(s.options.post_key_play);
    EXPECT_TRUE(s.options.quodlibet);
    const Problem h =
        parse_popeye("beginproblem\nstip h#2\npieces white ka1 black ka8\noption postkey quodlibet\nendproblem\n",
                     "t.inp")
            .at(0);
    EXPECT_FALSE(h.options.post_key_play);
    EXPECT_FALSE(h.options.quodlibet);
    EXPECT_NE(std::find(h.notes.begin(), h.notes.end(), "PostKeyPlay not applicable - ignored"), h.notes.end());
    EXPECT_NE(std::find(h.notes.begin(), h.notes.end(), "Quodlibet not applicable - ignored"), h.notes.end());
}
