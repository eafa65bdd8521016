// Tests of resolve_rules: Popeye condition words -> one RuleSet. Expected values cite
// /work/shared/RULES.md (section 4 axes, section 5 catalogue, by line) or Popeye 4.104's
// manual py-engl.txt and its condition parser (input/plaintext/condition.c).

#include <gtest/gtest.h>

#include "rebirth/position.h"
#include "test_util.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "../src/io/popeye_parse.h"
#include "rebirth/error.h"
#include "rebirth/popeye_input.h"
#include "rebirth/rules.h"
#include "rebirth/walk.h"

namespace fs = std::filesystem;
using namespace rebirth;

namespace {

const fs::path kReference = fs::path(REBIRTH_SHARED_DIR) / "reference";

// Parses Popeye condition words (English) the way the input parser does.
std::vector<Condition> parse(const std::string& words) {
    popeye::Lexer lex(words, "t.inp");
    auto conds = popeye::parse_conditions(lex, Language::English);
    EXPECT_FALSE(lex.next().has_value()) << "words left over in: " << words;
    return conds;
}

RuleSet resolve(const std::string& words) { return resolve_rules(parse(words), "t.inp", 7); }

// Expects resolving `words` to throw an InputError naming `word` at t.inp:7.
void expect_error(const std::string& words, const std::string& word) {
    try {
        const RuleSet r = resolve(words);
        ADD_FAILURE() << "'" << words << "' resolved to " << r.describe();
    } catch (const InputError& e) {
        EXPECT_EQ(e.word(), word) << words << ": " << e.what();
        EXPECT_EQ(e.file(), "t.inp");
        EXPECT_EQ(e.line(), 7);
    }
}

// Base values of the families (RULES.md section 4 line 63 "rex", section 5):
RuleSet circe() {  // line 71: "Circe: section 3. Rex exclusive, relaxed."
    RuleSet r;
    r.reborn = Reborn::Captured;
    r.occupied = Occupied::Relaxed;
    r.rex = Rex::Exclusive;
    return r;
}
RuleSet anticirce() {  // line 74: capturer reborn, kings included, occupied square -> illegal
    RuleSet r;
    r.reborn = Reborn::Capturer;
    r.occupied = Occupied::Strict;
    r.rex = Rex::Inclusive;
    return r;
}
RuleSet mars() {  // line 79: square must be empty, captured unit disappears, kings included
    RuleSet r;
    r.mars = true;
    r.occupied = Occupied::Strict;
    r.rex = Rex::Inclusive;
    return r;
}
RuleSet with(RuleSet r, const std::function<void(RuleSet&)>& f) {
    f(r);
    return r;
}

std::array<Walk, WALK_NB> cycle(std::initializer_list<std::pair<Walk, Walk>> steps) {
    std::array<Walk, WALK_NB> c{};
    for (auto [from, to] : steps) c[from] = to;
    return c;
}

// Every condition of reference/movelists.jsonl with the values it must resolve to.
const std::map<std::string, RuleSet>& movelist_expectations() {
    static const std::map<std::string, RuleSet> m = {
        {"", RuleSet{}},  // orthodox
        {"Circe", circe()},
        {"AntiCirce", anticirce()},  // line 74: AntiCirce = AntiCirce Calvet
        {"AntiCirce Cheylan", with(anticirce(), [](RuleSet& r) { r.cheylan = true; })},  // line 75
        {"AntiCirce Volcanic",                                                           // line 85
         with(anticirce(), [](RuleSet& r) { r.occupied = Occupied::Volcanic; })},
        {"AntiMarsCirce",  // line 80
         with(mars(), [](RuleSet& r) { r.mars = false, r.antimars = true; })},
        {"MarsCirce", mars()},                                                                     // line 79
        {"Circe Antipodes", with(circe(), [](RuleSet& r) { r.square = SquareRule::Antipodes; })},  // line 86
        {"Circe Assassin", with(circe(), [](RuleSet& r) { r.occupied = Occupied::Assassin; })},    // line 76
        {"Circe Cage", with(circe(), [](RuleSet& r) { r.square = SquareRule::Cage; })},            // line 94, manual
        {"Circe Chameleon",  // line 61: S->B->R->Q->S
         with(circe(),
              [](RuleSet& r) {
                  r.chameleon = true;
                  r.chameleon_cycle = cycle({{KNIGHT, BISHOP}, {BISHOP, ROOK}, {ROOK, QUEEN}, {QUEEN, KNIGHT}});
              })},
        {"Circe Clone", with(circe(), [](RuleSet& r) { r.clone = true; })},                        // line 89
        {"Circe Couscous", with(circe(), [](RuleSet& r) { r.square = SquareRule::Couscous; })},    // line 88
        {"Circe Diagram", with(circe(), [](RuleSet& r) { r.square = SquareRule::Diagram; })},      // line 94
        {"Circe Diametral", with(circe(), [](RuleSet& r) { r.square = SquareRule::Diametral; })},  // line 94
        {"Circe Equipollents",                                                                     // line 82
         with(circe(), [](RuleSet& r) { r.square = SquareRule::Equipollents; })},
        {"Circe File", with(circe(), [](RuleSet& r) { r.square = SquareRule::File; })},            // line 94
        {"Circe Frischauf", with(circe(), [](RuleSet& r) { r.frischauf = true; })},                // line 78
        {"Circe Mirror", with(circe(), [](RuleSet& r) { r.mirror = true; })},                      // line 94
        {"Circe PWC", with(circe(), [](RuleSet& r) { r.square = SquareRule::PWC; })},              // line 83
        {"Circe Parachute", with(circe(), [](RuleSet& r) { r.occupied = Occupied::Parachute; })},  // line 62
        {"Circe Parrain", with(circe(), [](RuleSet& r) { r.square = SquareRule::Parrain; })},      // line 81
        {"Circe RexInclusive", with(circe(), [](RuleSet& r) { r.rex = Rex::Inclusive; })},         // line 72
        {"Circe Strict", with(circe(), [](RuleSet& r) { r.occupied = Occupied::Strict; })},        // line 73
        {"Circe Super", with(circe(), [](RuleSet& r) { r.square = SquareRule::Super; })},          // line 94
        {"Circe Symmetry", with(circe(), [](RuleSet& r) { r.square = SquareRule::Symmetry; })},    // line 93
        {"Circe Take&Make", with(circe(), [](RuleSet& r) { r.square = SquareRule::TakeMake; })},   // line 94
        {"Circe Volcanic", with(circe(), [](RuleSet& r) { r.occupied = Occupied::Volcanic; })},    // line 84
    };
    return m;
}

TEST(Rules, EveryMovelistConditionResolvesToItsAxes) {
    std::ifstream in(kReference / "movelists.jsonl");
    ASSERT_TRUE(in) << "cannot read movelists.jsonl";
    std::set<std::string> seen;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const std::string cond = nlohmann::json::parse(line).at("condition").get<std::string>();
        if (!seen.insert(cond).second) continue;
        const auto it = movelist_expectations().find(cond);
        ASSERT_NE(it, movelist_expectations().end()) << "no expectation written for condition '" << cond << "'";
        const RuleSet r = resolve(cond);
        EXPECT_TRUE(r == it->second) << "'" << cond << "' resolved to " << r.describe() << ", expected "
                                     << it->second.describe();
        EXPECT_EQ(r.orthodox(), cond.empty()) << cond;
    }
    EXPECT_EQ(seen.size(), movelist_expectations().size());
}

// What each reference problem (and twin) resolves to: describe(), or "error: <word>".
// Derived from the problem's Popeye output header (which prints its conditions) and RULES.md.
const std::map<std::string, std::vector<std::string>>& problem_expectations() {
    static const std::map<std::string, std::vector<std::string>> m = {
        {"BEISPIEL-assass-01", {"Circe Assassin"}},
        {"BEISPIEL-assass-02", {"Circe Assassin"}},
        {"BEISPIEL-assass-03", {"Circe Assassin"}},
        {"BEISPIEL-assass-04", {"Circe Assassin"}},
        {"BEISPIEL-assass-05", {"Circe Assassin"}},
        // zwilling bedingung chamaeleoncirce s l t d s / circeclone / chamaeleoncirce s d t l s;
        // German S L T D = S B R Q: b) is the default cycle (Popeye prints it as given,
        // "D->S->L->T->D"; describe() prints only a non-default cycle), d) "D->T->L->S->D".
        {"BEISPIEL-cirpiece-01", {"Circe", "Circe Chameleon", "Circe Clone", "Circe Chameleon Q->R->B->S->Q"}},
        {"BEISPIEL-cirpiece-03", {"Circe Chameleon", "Circe Chameleon"}},
        {"BEISPIEL-cirpiece-04", {"Circe Chameleon"}},
        {"BEISPIEL-cirpiece-05", {"Circe Clone"}},
        {"BEISPIEL-cirpiece-06", {"Circe Clone"}},
        {"BEISPIEL-cirpiece-07", {"Circe Clone"}},
        {"BEISPIEL-cirpiece-08", {"Circe Clone", "Circe Clone"}},
        {"BEISPIEL-cirpiece-09", {"Circe Clone"}},
        {"BEISPIEL-parrain-01", {"Circe Parrain"}},
        {"BEISPIEL-parrain-02", {"Circe Parrain"}},
        {"BEISPIEL-parrain-03", {"Circe Parrain"}},
        {"BEISPIEL-parrain-04", {"Circe Parrain"}},
        {"BEISPIEL-parrain-05", {"Circe Parrain"}},
        {"BEISPIEL-parrain-06", {"Circe Parrain"}},
        {"BEISPIEL-parrain-07", {"Circe Parrain"}},
        {"BEISPIEL-parrain-08", {"Circe Parrain"}},
        {"BEISPIEL-parrain-09", {"Circe Parrain"}},
        {"EXAMPLES-anticircesymm-01", {"AntiCirce Symmetry", "AntiCirce VerticalSymmetry"}},
        {"EXAMPLES-antimars-01", {"AntiMarsCirce"}},
        {"EXAMPLES-antimars-02", {"AntiMarsCirce"}},
        {"EXAMPLES-antimars-03", {"AntiMarsCirce"}},
        {"EXAMPLES-antisup-01", {"AntiCirce Super", "AntiCirce Super"}},
        {"EXAMPLES-antisup-02", {"AntiCirce Super"}},
        {"EXAMPLES-antisup-03", {"Circe, AntiCirce Super"}},  // Popeye prints "Circe" / "AntiCirce Super"
        {"EXAMPLES-antisup-05", {"AntiCirce Super", "AntiCirce Super"}},
        {"EXAMPLES-antisup-06", {"AntiCirce Super", "AntiCirce Super Cheylan"}},
        {"EXAMPLES-lastcap-01", {"Circe Parrain LastCapture White Bg4"}},
        {"EXAMPLES-lastcap-02", {"Circe Parrain LastCapture White Rg4"}},
        {"EXAMPLES-lastcap-03", {"Circe Parrain LastCapture White Sg4"}},
        {"REGRESSIONS-4_47_to_4_49-01", {"orthodox"}},
        {"REGRESSIONS-4_47_to_4_49-06", {"orthodox"}},
        {"REGRESSIONS-4_47_to_4_49-09", {"orthodox"}},
        {"REGRESSIONS-4_47_to_4_49-10", {"orthodox"}},
        {"REGRESSIONS-4_47_to_4_49-13", {"orthodox"}},
        {"REGRESSIONS-4_47_to_4_49-15", {"orthodox"}},
        {"REGRESSIONS-4_47_to_4_49-16", {"Circe PWC"}},
        {"REGRESSIONS-4_65_to_4_67-13", {"orthodox"}},
        {"REGRESSIONS-4_81_to_4_83-06", {"orthodox", "orthodox"}},
        {"TESTS-anticirce-08", {"AntiCirce Couscous"}},
        {"TESTS-anticirce-09", {"AntiCirce Diametral"}},
        {"TESTS-anticirce-12", {"AntiCirce Chameleon"}},
        {"TESTS-anticirce-14", {"AntiCirce Super Relaxed"}},
        {"TESTS-anticirce-18", {"AntiCirce Frischauf"}},
        {"TESTS-anticirce-19", {"AntiCirce Frischauf"}},
        {"TESTS-anticirce-20", {"AntiCirce RexExclusive"}},
        {"TESTS-circe-01", {"Circe File", "Circe File Mirror"}},
        {"TESTS-circe-02", {"AntiCirce Diagram"}},
        {"TESTS-circe-03", {"AntiCirce Mirror"}},
        {"TESTS-circe-04", {"AntiCirce File"}},
        {"TESTS-circe-05", {"AntiCirce Symmetry"}},
        {"TESTS-circe-06", {"AntiCirce File Mirror"}},
        {"TESTS-circe-07", {"AntiCirce Antipodes"}},
        {"TESTS-circe-08", {"AntiCirce Equipollents"}},
        {"TESTS-circe-10", {"Circe Mirror Assassin"}},
        {"TESTS-circe-11", {"AntiCirce Assassin"}},
        {"TESTS-circe-12", {"AntiCirce Assassin"}},
        {"TESTS-circe-20", {"Circe Cage", "Circe Cage Strict"}},
        {"TESTS-circe-21", {"Circe VerticalMirror RexInclusive"}},
        {"TESTS-circe-22", {"Circe Chameleon", "Circe Chameleon Q->R->B->S->Q"}},
        {"TESTS-circe-23", {"Circe Volcanic", "Circe Parachute"}},
        // Popeye: "Circe Chameleon Q->R->B->S->Q" / "AntiCirce Chameleon Q->B->S->R->Q"
        {"TESTS-circe-25", {"Circe Chameleon Q->R->B->S->Q, AntiCirce Chameleon Q->B->S->R->Q"}},
    };
    return m;
}

TEST(Rules, EveryReferenceProblemResolves) {
    std::set<std::string> seen;
    for (const auto& entry : fs::directory_iterator(kReference / "problems")) {
        if (entry.path().extension() != ".inp") continue;
        const std::string name = entry.path().stem().string();
        seen.insert(name);
        const auto problems = parse_popeye_file(entry.path().string());
        ASSERT_EQ(problems.size(), 1u) << name;
        const Problem& p = problems[0];
        std::vector<std::string> got;
        for (size_t t = 0; t <= p.twins.size(); ++t) {
            const Problem twin = apply_twin(p, t);
            try {
                got.push_back(resolve_rules(twin.conditions, twin.where.file, twin.where.line).describe());
            } catch (const InputError& e) {
                got.push_back("error: " + e.word());
            }
        }
        const auto it = problem_expectations().find(name);
        ASSERT_NE(it, problem_expectations().end()) << "no expectation for " << name;
        EXPECT_EQ(got, it->second) << name;
    }
    EXPECT_EQ(seen.size(), problem_expectations().size());
}

TEST(Rules, OrthodoxAndDescribe) {
    EXPECT_TRUE(resolve_rules({}).orthodox());
    EXPECT_EQ(resolve_rules({}).describe(), "orthodox");
    EXPECT_FALSE(resolve("Circe").orthodox());
    EXPECT_FALSE(resolve("MarsCirce").orthodox());
    EXPECT_EQ(resolve("Circe Strict").describe(), "Circe Strict");
    EXPECT_EQ(resolve("AntiCirce Cheylan").describe(), "AntiCirce Cheylan");
    EXPECT_EQ(resolve("AntiCirce Calvet").describe(), "AntiCirce");
    EXPECT_EQ(resolve("MarsCirce").describe(), "MarsCirce");
    EXPECT_EQ(resolve("Circe Kamikaze").describe(), "Circe Kamikaze");
    EXPECT_EQ(resolve("Circe Ultra").describe(), "Circe Ultra");
}

// Traditional names are aliases (RULES.md section 4 line 57; the parser splits them).
TEST(Rules, TraditionalNames) {
    EXPECT_TRUE(resolve("CirceAssassin") == resolve("Circe Assassin"));
    EXPECT_TRUE(resolve("MirrorCirce") == resolve("Circe Mirror"));
    EXPECT_TRUE(resolve("PWC") == resolve("Circe PWC"));
    EXPECT_TRUE(resolve("SuperCirce") == resolve("Circe Super"));
    EXPECT_TRUE(resolve("AntiSuperCirce") == resolve("AntiCirce Super"));
    EXPECT_TRUE(resolve("MarsMirrorCirce") == resolve("MarsCirce Mirror"));
    // Mars and Anti-Mars Circe with a square rule other than the classic one: refused (their
    // departure squares follow the classic rule only; Popeye 4.104 moves from the rule's square:
    // under AntiMarsCirce Diagram a knight on its diagram square d3 steps from d3, not from b1).
    expect_error("AntiMarsAntipodeanCirce", "Antipodes");
    expect_error("AntiMarsCirce Antipodes", "Antipodes");
    expect_error("MarsCirce File", "File");
    expect_error("AntiMarsCirce Diagram", "Diagram");
    expect_error("MarsCirce VerticalMirror", "VerticalMirror");
    EXPECT_TRUE(resolve("MirrorCouscousCirce") == resolve("Circe Couscous Mirror"));
    EXPECT_TRUE(resolve("ContraParrain").square == SquareRule::ContraParrain);
    // Repeating a family word merges the qualifiers (Popeye parses both into one variant).
    EXPECT_TRUE(resolve("Circe MirrorCirce") == resolve("Circe Mirror"));
}

TEST(Rules, QualifierValues) {
    // Mirror is an adapter, File the square rule (Popeye: AntiCirce File Mirror, TESTS-circe-06).
    const RuleSet fm = resolve("AntiCirce File Mirror");
    EXPECT_EQ(fm.square, SquareRule::File);
    EXPECT_TRUE(fm.mirror);
    EXPECT_EQ(resolve("Circe VerticalMirror").vertical_mirror, true);
    EXPECT_EQ(resolve("Circe Rank").square, SquareRule::Rank);
    EXPECT_EQ(resolve("Circe VerticalSymmetry").square, SquareRule::VerticalSymmetry);
    EXPECT_EQ(resolve("Circe HorizontalSymmetry").square, SquareRule::HorizontalSymmetry);
    EXPECT_EQ(resolve("Circe Ultra").occupied, Occupied::Ultra);
    EXPECT_TRUE(resolve("Circe Hydra").hydra);
    EXPECT_TRUE(resolve("Circe Atom").atom);
    EXPECT_TRUE(resolve("Circe Alsatian").alsatian);
    EXPECT_TRUE(resolve("Circe Kamikaze Strict").kamikaze);
    EXPECT_EQ(resolve("AntiCirce RexExclusive").rex, Rex::Exclusive);
    EXPECT_EQ(resolve("MarsCirce RexExclusive").rex, Rex::Exclusive);
    EXPECT_EQ(resolve("AntiCirce Relaxed").occupied, Occupied::Relaxed);
    EXPECT_EQ(resolve("Circe Symmetry Assassin").occupied, Occupied::Assassin);  // seed 004 Diagram E
    EXPECT_EQ(resolve("Circe Strict Strict").occupied, Occupied::Strict);        // a repeat is no conflict
}

// Chameleon cycles: Popeye reads walk after walk and closes an unclosed cycle.
TEST(Rules, ChameleonCycles) {
    const RuleSet a = resolve("Circe Chameleon S Q R B S");  // TESTS-circe-25: Q->R->B->S->Q
    EXPECT_TRUE(a.chameleon_cycle == cycle({{KNIGHT, QUEEN}, {QUEEN, ROOK}, {ROOK, BISHOP}, {BISHOP, KNIGHT}}));
    const RuleSet b = resolve("Circe Chameleon S B");
    EXPECT_TRUE(b.chameleon_cycle == cycle({{KNIGHT, BISHOP}, {BISHOP, KNIGHT}}));
    const RuleSet c = resolve("Circe Chameleon Q G");  // fairy walks too
    EXPECT_TRUE(c.chameleon_cycle == cycle({{QUEEN, GRASSHOPPER}, {GRASSHOPPER, QUEEN}}));
    const RuleSet d = resolve("Circe Chameleon Strict");
    EXPECT_TRUE(d.chameleon_cycle == default_chameleon_cycle());
    EXPECT_EQ(d.occupied, Occupied::Strict);
    EXPECT_EQ(resolve("AntiCirce Chameleon").reborn, Reborn::Capturer);
}

TEST(Rules, LastCapture) {
    const RuleSet r = resolve("parr lastcap wh bg4");  // EXAMPLES-lastcap-01
    EXPECT_EQ(r.square, SquareRule::Parrain);
    EXPECT_EQ(r.last_capture_piece, make_piece(WHITE, BISHOP));
    EXPECT_EQ(r.last_capture_square, parse_square("g4"));
    const RuleSet c = resolve("ContraParrain LastCapture Black Pe5");
    EXPECT_EQ(c.square, SquareRule::ContraParrain);
    EXPECT_EQ(c.last_capture_piece, make_piece(BLACK, PAWN));
    // LastCapture as its own condition before the Circe word.
    const RuleSet d = resolve("LastCapture White Rg4 Circe Parrain");
    EXPECT_EQ(d.last_capture_piece, make_piece(WHITE, ROOK));
    EXPECT_EQ(d.square, SquareRule::Parrain);
    EXPECT_EQ(resolve("Circe Parrain").last_capture_square, SQ_NONE);
}

// Circe + AntiCirce (Popeye: both units reborn, the capturer first; EXAMPLES-antisup-03
// `cond antisup circe`, output `b6*a7[wPa7->a6][+bPa7]`).
TEST(Rules, CirceAndAntiCirce) {
    const RuleSet r = resolve("antisup circe");
    EXPECT_EQ(r.reborn, Reborn::Both);
    EXPECT_EQ(r.square, SquareRule::Classic);
    EXPECT_EQ(r.occupied, Occupied::Relaxed);
    EXPECT_EQ(r.rex, Rex::Exclusive);
    EXPECT_EQ(r.both_capturer.square, SquareRule::Super);
    EXPECT_EQ(r.both_capturer.occupied, Occupied::Strict);
    EXPECT_EQ(r.both_capturer.rex, Rex::Inclusive);
    const RuleSet c = resolve("Circe AntiCirce Cheylan");
    EXPECT_TRUE(c.cheylan);
    EXPECT_EQ(c.describe(), "Circe, AntiCirce Cheylan");
}

TEST(Rules, ErrorsNameTheWord) {
    // Non-Circe conditions (the parser already refuses Popeye's; other callers may not).
    try {
        resolve_rules({Condition{"Madrasi", {}}}, "x.inp", 3);
        ADD_FAILURE() << "Madrasi accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.word(), "Madrasi");
        EXPECT_EQ(e.line(), 3);
        EXPECT_NE(std::string(e.what()).find("condition not supported"), std::string::npos) << e.what();
    }
    // One value per axis: the second word is named.
    expect_error("Circe Strict Assassin", "Assassin");
    expect_error("Circe Assassin Ultra", "Ultra");
    expect_error("Circe RexInclusive RexExclusive", "RexExclusive");
    expect_error("Circe File Symmetry", "Symmetry");  // Popeye: NonsenseCombination
    expect_error("Circe PWC Super", "Super");
    expect_error("Circe Clone Chameleon", "Chameleon");
    expect_error("Circe Couscous File", "File");  // Popeye combines them, we do not yet
    expect_error("AntiCirce Calvet Cheylan", "Cheylan");
    // Popeye's adapter slots.
    expect_error("Circe ContraParrain Mirror", "Mirror");
    expect_error("Circe Diametral VerticalMirror", "VerticalMirror");
    expect_error("Circe Frischauf VerticalMirror", "VerticalMirror");
    expect_error("Circe Rank Frischauf", "Frischauf");
    expect_error("Circe Mirror Super", "Super");
    // Words that do not belong to the family, or have no axis value yet.
    expect_error("Circe Cheylan", "Cheylan");
    // Turncoats and April where rebirth cannot follow Popeye yet (a colour change or walk test
    // on a buried, lifted, caged or waiting unit), where Popeye refuses them (Mars, Anti-Mars),
    // or April without its walks.
    expect_error("MarsCirce Turncoats", "Turncoats");
    expect_error("AntiMarsCirce April S", "April");
    expect_error("Circe Turncoats Volcanic", "Volcanic");
    expect_error("Circe Parachute April S", "April");
    expect_error("Circe Parrain Turncoats", "Turncoats");
    expect_error("Circe Cage Turncoats", "Turncoats");
    expect_error("Circe Couscous April S", "April");
    expect_error("Circe Turncoats Kamikaze", "Kamikaze");
    expect_error("Circe AntiCirce Turncoats", "AntiCirce");
    expect_error("Circe April", "April");
    expect_error("Circe Cage Volcanic", "Volcanic");
    expect_error("Circe Parachute Cage", "Cage");
    expect_error("AntiCirce Kamikaze", "Kamikaze");
    expect_error("AntiCirce Parrain", "Parrain");
    expect_error("MarsCirce PWC", "PWC");
    expect_error("MarsCirce Clone", "Clone");
    expect_error("MarsCirce Assassin", "Assassin");
    expect_error("AntiMarsCirce Super", "Super");
    // Anti-Circe Take&Make (Popeye moves the capturer on from the capture square) and Take&Make
    // Circe with kings reborn (Popeye reborns a king by castling too): not followed yet
    // (data/popeye-oracle/README.md, the perft differential run of 2026-12-04).
    expect_error("AntiCirce Take&Make", "Take&Make");
    expect_error("Circe Take&Make RexInclusive", "RexInclusive");
    // Our own qualifiers are defined with the section 3 square only.
    expect_error("Circe Kamikaze Hydra", "Hydra");
    expect_error("Circe Hydra File", "File");
    expect_error("Circe File Atom", "Atom");
    expect_error("Circe Atom Strict", "Strict");
    expect_error("Circe Ultra Mirror", "Mirror");
    // Family combinations other than Circe + AntiCirce.
    expect_error("MarsCirce Circe", "Circe");
    expect_error("Circe AntiMarsCirce", "AntiMarsCirce");
    expect_error("Circe Parrain AntiCirce", "AntiCirce");
    // LastCapture without Parrain, twice, malformed.
    expect_error("Circe LastCapture White Bg4", "LastCapture");
    expect_error("LastCapture White Bg4", "LastCapture");
    expect_error("Circe Parrain LastCapture White Bg4 LastCapture Black Sb8", "LastCapture");
    // Chameleon cycles need two walks.
    expect_error("Circe Chameleon S", "S");
}

}  // namespace

namespace {

// The legal moves of a diagram under `conditions` (Popeye words).
std::vector<std::string> moves_under(const char* conditions, std::initializer_list<const char*> units, Color side) {
    const RuleSet rules = resolve_rules(parse_condition_words(conditions, "test"), "test");
    SetupRules setup_rules;
    setup_rules.rules = &rules;
    Position pos(rebirth::test::diagram(units, side), setup_rules);
    return rebirth::test::legal_moves(pos);
}

}  // namespace

// Turncoats and April (RULES.md section 5: as py-engl.txt defines them; the expected moves are
// Popeye 4.104's, for these diagrams and conditions, see data/popeye-oracle/turncoats_april):
// the reborn unit changes side once on its rebirth square ([+bRh8=w]), a capturing unit
// under Anti-Circe too; April rebirths only the walks it lists, and a listed walk's rebirth
// never falls back on no rebirth (an occupied or missing square makes the capture illegal).
TEST(Rules, TurncoatsAndAprilResolve) {
    const RuleSet t = resolve("Circe Turncoats");
    EXPECT_TRUE(t.turncoat);
    EXPECT_EQ(t.reborn, Reborn::Captured);
    EXPECT_EQ(t.describe(), "Circe Turncoats");
    const RuleSet d = resolve("CirceDoubleAgents");
    EXPECT_TRUE(d.turncoat && d.mirror);
    const RuleSet a = resolve("AntiCirce Turncoats RexExclusive");
    EXPECT_TRUE(a.turncoat);
    EXPECT_EQ(a.reborn, Reborn::Capturer);
    // AprilChess: Super Circe, Strict by default (Popeye's condition.c), the walks listed.
    const RuleSet ac = resolve("AprilChess Q R");
    EXPECT_EQ(ac.square, SquareRule::Super);
    EXPECT_EQ(ac.occupied, Occupied::Strict);
    EXPECT_EQ(ac.april, (1u << QUEEN) | (1u << ROOK));
    EXPECT_TRUE(april_reborn(ac, QUEEN));
    EXPECT_FALSE(april_reborn(ac, BISHOP));
    EXPECT_EQ(resolve("Circe Super April Q").occupied, Occupied::Relaxed);
    EXPECT_EQ(resolve("Circe April S B").april, (1u << KNIGHT) | (1u << BISHOP));
    EXPECT_EQ(resolve("Circe April S B").describe(), "Circe April B S");
    EXPECT_TRUE(april_reborn(resolve("Circe"), KING));
}

TEST(Rules, TurncoatsAndAprilMoves) {
    // Circe Turncoats: the rook taken on h4 is reborn on h8 as a white rook.
    const auto t = moves_under("Circe Turncoats", {"wKe1", "wQd4", "wSc3", "bKe8", "bRh4", "bBb4"}, WHITE);
    EXPECT_EQ(std::count(t.begin(), t.end(), "Qd4*h4[+bRh8=w]"), 1);
    EXPECT_EQ(std::count(t.begin(), t.end(), "Qd4*b4[+bBf8=w]"), 1);
    // Double Agents (Mirror): on White's own squares, as White's units.
    const auto m = moves_under("CirceDoubleAgents", {"wKe1", "wQd4", "bKe8", "bRh8", "bRa4"}, WHITE);
    EXPECT_EQ(std::count(m.begin(), m.end(), "Qd4*h8[+bRa1=w]"), 1);
    EXPECT_EQ(std::count(m.begin(), m.end(), "Qd4*a4[+bRh1=w]"), 1);
    // A pawn reborn on its last rank promotes first, then changes side.
    const auto e = moves_under("Circe Equipollents Turncoats", {"wKe1", "wQd3", "bKe8", "bPc2"}, WHITE);
    EXPECT_EQ(std::count(e.begin(), e.end(), "Qd3*c2[+bPb1=Q=w]"), 1);
    EXPECT_EQ(std::count(e.begin(), e.end(), "Qd3*c2[+bPb1=S=w]"), 1);
    // Anti-Circe Turncoats: the capturer goes home and joins the other side; a capture whose
    // capturer would then check its own king is not legal.
    const auto a =
        moves_under("AntiCirce Turncoats RexExclusive", {"wKe1", "wQd4", "wSc3", "bKe8", "bRh4", "bPb5"}, WHITE);
    EXPECT_EQ(std::count(a.begin(), a.end(), "Sc3*b5[wSb5->b1=b]"), 1);
    EXPECT_EQ(std::count_if(a.begin(), a.end(), [](const std::string& m) { return m.rfind("Qd4*h4", 0) == 0; }), 0);
    // April S: only the knight is reborn; the bishop and rook are taken as in orthodox chess.
    const auto s = moves_under("Circe April S", {"wKe1", "wQd4", "wSc3", "bKe8", "bSd7", "bRh4", "bBb4"}, WHITE);
    EXPECT_EQ(std::count(s.begin(), s.end(), "Qd4*d7[+bSg8]"), 1);
    EXPECT_EQ(std::count(s.begin(), s.end(), "Qd4*h4"), 1);
    EXPECT_EQ(std::count(s.begin(), s.end(), "Qd4*b4"), 1);
    // April R: the rook's rebirth square is occupied (knight on h8): no capture, where plain
    // Circe lets the rook vanish.
    const auto o = moves_under("Circe April R", {"wKe1", "wQd4", "bKa5", "bRh4", "bSh8"}, WHITE);
    EXPECT_EQ(std::count(o.begin(), o.end(), "Qd4*h4"), 0);
    const auto c = moves_under("Circe", {"wKe1", "wQd4", "bKa5", "bRh4", "bSh8"}, WHITE);
    EXPECT_EQ(std::count(c.begin(), c.end(), "Qd4*h4"), 1);
    // A walk April does not list, under Super Circe with its no-rebirth choice: one move
    // (Popeye 4.104 lists it twice, README: known Popeye defects).
    const auto u = moves_under("Circe Super April Q", {"wKe1", "wQd4", "bKe8", "bRh4", "bQa4"}, WHITE);
    EXPECT_EQ(std::count(u.begin(), u.end(), "Qd4*h4"), 1);
}

// A rook reborn and turned on a game-array rook square of its new side regains that castling
// right (RULES.md section 3): under Double Agents Bc3*h8 brings the black rook back on a1 as a
// White rook, and White castles 0-0-0 next (Popeye 4.104, h001.5 with these units:
// 1...Bc3*h8[+bRa1=w] 2.Kb5-c4 0-0-0).
TEST(Rules, TurncoatsRookRegainsItsNewSidesCastling) {
    const RuleSet rules = resolve("CirceDoubleAgents");
    SetupRules setup_rules;
    setup_rules.rules = &rules;
    rebirth::Setup setup = rebirth::test::diagram({"wKe1", "wBc3", "bKb5", "bRh8"}, WHITE);
    setup.castling = square_bb(SQ_E1) | square_bb(SQ_H8);
    Position pos(setup, setup_rules);
    auto play = [&](const std::string& text) {
        MoveList list;
        generate_legal(pos, list);
        for (const Move& m : list)
            if (move_to_popeye(pos, m) == text) {
                UndoInfo u;
                pos.do_move(m, u);
                return true;
            }
        return false;
    };
    ASSERT_TRUE(play("Bc3*h8[+bRa1=w]"));
    EXPECT_EQ(pos.castling_rights(), square_bb(SQ_E1) | square_bb(SQ_A1));
    ASSERT_TRUE(play("Kb5-c4"));
    const auto moves = rebirth::test::legal_moves(pos);
    EXPECT_EQ(std::count(moves.begin(), moves.end(), "0-0-0"), 1);
}

// Kings that would change side are refused when the diagram has a king (Popeye plays
// 1.Ke1*d2[wKd2->e1=b] under AntiCirce Turncoats); a kingless problem is solved.
TEST(Rules, TurncoatsRefuseKingsThatMayChangeSide) {
    const RuleSet rules = resolve("AntiCirce Turncoats");
    SetupRules setup_rules;
    setup_rules.rules = &rules;
    try {
        Position pos(rebirth::test::diagram({"wKe1", "wSd3", "bKe8", "bPd2"}, WHITE), setup_rules);
        ADD_FAILURE() << "kings accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(e.word(), "Turncoats");
    }
    setup_rules.require_white_king = setup_rules.require_black_king = false;
    Position kingless(rebirth::test::diagram({"wSd3", "bPe5"}, WHITE), setup_rules);
    const auto moves = rebirth::test::legal_moves(kingless);
    EXPECT_EQ(std::count(moves.begin(), moves.end(), "Sd3*e5[wSe5->g1=b]"), 1);
}

// Issue 10 (amending RULES.md section 5): under Circe Cage, and Parrain where RULES.md lets the
// pawn step, a pawn on its own first rank steps once and captures diagonally, so it also
// gives check, as in Popeye 4.104 (REGRESSIONS/4_51_to_4_53.inp, "check from pawn on 1st/8th
// rank"; the positions below are constructed). Black pawn c8 (Black's first rank), white king
// e8: Ke8-d7 walks into the pawn's capture.
TEST(Rules, FirstRankPawnsMoveAndCheckUnderCageAndParrain) {
    for (const char* cond : {"Circe Cage", "Circe Parrain", "Circe ContraParrain"}) {
        SCOPED_TRACE(cond);
        const auto white = moves_under(cond, {"wKe8", "bPc8", "bKa1"}, WHITE);
        EXPECT_EQ(std::count(white.begin(), white.end(), "Ke8-d7"), 0);
        EXPECT_EQ(std::count(white.begin(), white.end(), "Ke8-e7"), 1);
        // The pawn itself: one step, and the capture of the knight on d7.
        const auto black = moves_under(cond, {"wKe1", "wSd7", "bPc8", "bKa1"}, BLACK);
        EXPECT_EQ(std::count(black.begin(), black.end(), "c8-c7"), 1);
        EXPECT_EQ(std::count(black.begin(), black.end(), "c8*d7"), 1);
    }
    // Elsewhere (RULES.md section 2) the pawn on its first rank neither moves nor checks.
    for (const char* cond : {"Circe", "Circe PWC", "Circe Equipollents", "Circe Antipodes"}) {
        SCOPED_TRACE(cond);
        const auto white = moves_under(cond, {"wKe8", "bPc8", "bKa1"}, WHITE);
        EXPECT_EQ(std::count(white.begin(), white.end(), "Ke8-d7"), 1);
        const auto black = moves_under(cond, {"wKe1", "wSd7", "bPc8", "bKa1"}, BLACK);
        EXPECT_EQ(std::count_if(black.begin(), black.end(), [](const std::string& m) { return m[0] == 'c'; }), 0);
    }
}

// Circe Parrain: a double step whose move places the waiting unit on the square it crossed
// gives no en passant right (Popeye 4.104 takes the unit there, never the pawn en passant:
// data/popeye-oracle/parrain_double_step_onto_reborn_unit). A white unit took the queen on
// d8; d7-d5 puts it on d6, shifted by the move: e5 takes it, and the position keeps its
// invariants (no unit on the en passant square).
TEST(Rules, ParrainDoubleStepOntoTheRebornUnitGivesNoEnPassant) {
    const RuleSet rules = resolve_rules(parse_condition_words("Circe Parrain", "test"), "test");
    SetupRules setup_rules;
    setup_rules.rules = &rules;
    rebirth::Setup s = parse_fen("k7/p2p4/1p6/4P3/8/8/6PP/7K b - - 0 1");
    s.parrain_square = SQ_D8;
    s.parrain_piece = make_piece(BLACK, QUEEN);
    Position pos(s, setup_rules);
    bool played = false;
    MoveList black;
    generate_legal(pos, black);
    for (const Move& m : black) {
        if (move_to_popeye(pos, m) != "d7-d5[+bQd6]") continue;
        played = true;
        UndoInfo u;
        pos.do_move(m, u);
        std::string why;
        EXPECT_TRUE(pos.is_consistent(&why)) << why;
        EXPECT_EQ(pos.to_setup().ep_square, SQ_NONE);
        const auto white = rebirth::test::legal_moves(pos);
        EXPECT_EQ(std::count(white.begin(), white.end(), "e5*d6"), 1);
        EXPECT_EQ(std::count(white.begin(), white.end(), "e5*d6 ep."), 0);
        pos.undo_move(m, u);
    }
    EXPECT_TRUE(played);
}

// Circe Cage (RULES.md section 5): the captured unit is reborn only where it then has no
// legal non-capturing move (constructed positions). Sd5*f6 uncovers Qh1's check of Ka8: the
// rook reborn on the diagonal b7 ... g2 is pinned there, caged; elsewhere it is caged unless
// it can step onto the diagonal, as the reference generator that plays every move finds.
// Without the check the rook is caged nowhere and the capture is played without rebirth.
TEST(Rules, CirceCageCountsPinnedRebornUnitsAsCaged) {
    const RuleSet rules = resolve_rules(parse_condition_words("Circe Cage", "test"), "test");
    SetupRules setup_rules;
    setup_rules.rules = &rules;
    Position pos(rebirth::test::diagram({"wKe1", "wQh1", "wSd5", "bKa8", "bRf6"}, WHITE), setup_rules);
    const auto check = rebirth::test::legal_moves(pos);
    for (const char* m : {"Sd5*f6[+bRb7]", "Sd5*f6[+bRc6]", "Sd5*f6[+bRd5]", "Sd5*f6[+bRf3]", "Sd5*f6[+bRg2]"})
        EXPECT_EQ(std::count(check.begin(), check.end(), std::string(m)), 1) << m;
    EXPECT_EQ(std::count(check.begin(), check.end(), "Sd5*f6[+bRh7]"), 0);  // h7-b7
    EXPECT_EQ(std::count(check.begin(), check.end(), "Sd5*f6[+bRe4]"), 0);  // it would check Ke1
    MoveList reference;
    generate_legal_by_make(pos, reference);
    std::vector<std::string> expected;
    for (const Move& m : reference) expected.push_back(move_to_popeye(pos, m));
    EXPECT_EQ(check, rebirth::test::sorted(expected));
    const auto free = moves_under("Circe Cage", {"wKe1", "wBc1", "wSd4", "bKa8", "bRe6"}, WHITE);
    EXPECT_EQ(std::count(free.begin(), free.end(), "Sd4*e6"), 1);
    EXPECT_EQ(std::count_if(free.begin(), free.end(), [](const std::string& m) { return m.rfind("Sd4*e6", 0) == 0; }),
              1);
}

// Rank Circe (Popeye's TESTS/circe.inp, problem 27): R, B and S are reborn on the capture
// rank, on the home file (of either colour) whose square there has the capture square's
// colour: a black rook taken on e3 (dark) goes to a3, a black knight taken on c5 (dark) to g5.
TEST(Rules, RankCirceKeepsTheCaptureSquaresColour) {
    const auto on_e3 = moves_under("Circe Rank", {"wKh1", "wSc4", "bRe3", "bKh8"}, WHITE);
    EXPECT_EQ(std::count(on_e3.begin(), on_e3.end(), "Sc4*e3[+bRa3]"), 1);
    const auto on_c5 = moves_under("Circe Rank", {"wKh1", "wRc1", "bSc5", "bKh8"}, WHITE);
    EXPECT_EQ(std::count(on_c5.begin(), on_c5.end(), "Rc1*c5[+bSg5]"), 1);
}

// Combinations rebirth cannot represent are refused, naming the word.
TEST(Rules, UnrepresentableCombinationsAreRefused) {
    // Anti-Clone Circe with kings taking part: a capturing king would become a royal unit of
    // another walk (Popeye: [sKe3->kLf8]).
    expect_error("AntiCirce Clone", "AntiCirce");
    expect_error("Circe AntiCirce Cage", "Cage");
    // Clone Circe with kings reborn: a taken king is reborn with the taker's walk, as a royal
    // unit (Popeye: Bb6*c7[+brBf8]); without Rex Inclusive kings are never taken.
    expect_error("Circe Clone RexInclusive", "Circe");
    EXPECT_NO_THROW(resolve("Circe Clone"));
}

// Circe WaitCapture and CaptureSquare (Popeye 4.104's py-engl.txt: WaitCapture names the
// relevant capture, CaptureSquare the rebirth square; "Circe CaptureSquare WaitCapture" is
// Memory Circe, BEISPIEL/cirsquar.inp's "Circe Schlagfeld NaechsterSchlag"). rebirth defines
// them for Circe alone, Relaxed, kings excluded, with the Classic or CaptureSquare square.
TEST(Rules, WaitCaptureResolvesAndRefusesWhatItDoesNotDefine) {
    const RuleSet r = resolve("Circe CaptureSquare WaitCapture");
    EXPECT_EQ(r.reborn, Reborn::Captured);
    EXPECT_EQ(r.square, SquareRule::CaptureSquare);
    EXPECT_TRUE(r.wait_capture);
    EXPECT_EQ(r.occupied, Occupied::Relaxed);
    EXPECT_EQ(r.describe(), "Circe CaptureSquare WaitCapture");
    const RuleSet c = resolve("Circe WaitCapture");
    EXPECT_EQ(c.square, SquareRule::Classic);
    EXPECT_TRUE(c.wait_capture);
    EXPECT_FALSE(resolve("Circe").wait_capture);
    expect_error("Circe CaptureSquare", "CaptureSquare");
    expect_error("AntiCirce WaitCapture", "WaitCapture");
    expect_error("Circe WaitCapture AntiCirce", "WaitCapture");
    expect_error("Circe WaitCapture Strict", "Strict");
    expect_error("Circe WaitCapture RexInclusive", "RexInclusive");
    expect_error("Circe WaitCapture Mirror", "Mirror");
    expect_error("Circe WaitCapture File", "File");
    expect_error("Circe WaitCapture Kamikaze", "Kamikaze");
    expect_error("Circe CaptureSquare WaitCapture LastCapture White Bg4", "LastCapture");
}

// Memory Circe's rebirths, as Popeye 4.104 plays them (BEISPIEL/cirsquar.inp's proof game
// by Dupin, France Echecs 2011: "1.e2-e4 d7-d5 2.e4*d5 c7-c5 3.d5*c6 ep.[+sBd5]"): a capture
// reborns the unit the capture before it took, on that capture's square if empty; the unit
// it takes waits. Then 3...b7*c6 reborns the pawn taken en passant on c5, and after 4.Bf1-b5
// 4...c6*b5 the white pawn taken on c6 (c6 is empty again); the bishop waits.
TEST(Rules, WaitCaptureRebirthsTheUnitOfThePreviousCapture) {
    const RuleSet rules = resolve("Circe CaptureSquare WaitCapture");
    SetupRules setup_rules;
    setup_rules.rules = &rules;
    Position pos(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), setup_rules);
    const std::string start = to_fen(pos.to_setup());
    std::vector<std::pair<Move, UndoInfo>> played;
    auto play = [&](const std::string& text) {
        MoveList moves;
        generate_legal(pos, moves);
        for (const Move& m : moves)
            if (move_to_popeye(pos, m) == text) {
                played.emplace_back(m, UndoInfo{});
                pos.do_move(m, played.back().second);
                std::string why;
                EXPECT_TRUE(pos.is_consistent(&why)) << why;
                return;
            }
        ADD_FAILURE() << text << " is not a legal move in " << to_fen(pos.to_setup());
    };
    for (const char* m : {"e2-e4", "d7-d5", "e4*d5", "c7-c5"}) play(m);
    EXPECT_EQ(pos.parrain_piece(), make_piece(BLACK, PAWN));
    EXPECT_EQ(pos.parrain_square(), SQ_D5);
    play("d5*c6 ep.[+bPd5]");
    EXPECT_EQ(pos.piece_on(SQ_D5), make_piece(BLACK, PAWN));
    EXPECT_EQ(pos.parrain_square(), SQ_C5);
    play("b7*c6[+bPc5]");
    EXPECT_EQ(pos.piece_on(SQ_C5), make_piece(BLACK, PAWN));
    EXPECT_EQ(pos.parrain_piece(), make_piece(WHITE, PAWN));
    EXPECT_EQ(pos.parrain_square(), SQ_C6);
    play("Bf1-b5");
    EXPECT_EQ(pos.parrain_square(), SQ_C6);  // a move that takes nothing leaves it waiting
    play("c6*b5[+wPc6]");
    EXPECT_EQ(pos.piece_on(SQ_C6), make_piece(WHITE, PAWN));
    EXPECT_EQ(pos.parrain_piece(), make_piece(WHITE, BISHOP));
    EXPECT_EQ(pos.parrain_square(), SQ_B5);
    while (!played.empty()) {
        pos.undo_move(played.back().first, played.back().second);
        played.pop_back();
    }
    EXPECT_EQ(pos.parrain_square(), SQ_NONE);
    EXPECT_EQ(to_fen(pos.to_setup()), start);
}
