#include <array>
#include <cctype>

#include "io/popeye_parse.h"
#include "rebirth/walk.h"

namespace rebirth::popeye {

namespace {

// A condition name of Popeye's, in its three spellings, and the canonical base condition
// with the qualifiers the traditional name stands for. base "" = not supported by rebirth.
// StrictByDefault (AprilChess): an occupied rebirth square makes the capture illegal unless
// another rule is given, as Popeye 4.104 sets it for that name (and does not write it).
struct CondEntry {
    std::string_view en, fr, de;
    std::string_view base;
    std::array<std::string_view, 3> args{};
    // A traditional name (args given) takes no qualifier in Popeye 4.104 but these: the Rex
    // word where its condition.c calls ParseRexIncl (RexInclusive for Circe's names,
    // RexExclusive for Mars and Anti-Mars Circe's), Calvet or Cheylan for Anti-Circe's
    // (ParseAnticirceVariant); walk lists (Chameleon, April) are read apart.
    std::array<std::string_view, 2> follow{};
};

constexpr std::string_view kLastCapture = "LastCapture";

constexpr CondEntry kConditions[] = {
    {"Circe", "Circe", "Circe", "Circe"},
    {"AntiCirce", "AntiCirce", "AntiCirce", "AntiCirce"},
    {"MarsCirce", "MarsCirce", "MarsCirce", "MarsCirce"},
    {"AntiMarsCirce", "AntiMarsCirce", "AntiMarsCirce", "AntiMarsCirce"},
    {"MirrorCirce", "CirceMalefique", "SpiegelCirce", "Circe", {"Mirror"}, {"RexInclusive"}},
    {"PWC", "CirceEchange", "PlatzwechselCirce", "Circe", {"PWC"}},
    {"ChameleonCirce", "CirceCameleon", "ChamaeleonCirce", "Circe", {"Chameleon"}},
    {"CouscousCirce", "CirceCouscous", "CouscousCirce", "Circe", {"Couscous"}},
    {"EquipollentsCirce", "CirceEquipollents", "EquipollentsCirce", "Circe", {"Equipollents"}, {"RexInclusive"}},
    {"FileCirce", "FileCirce", "FileCirce", "Circe", {"File"}, {"RexInclusive"}},
    {"DiagramCirce", "CirceDiagramme", "DiagrammCirce", "Circe", {"Diagram"}, {"RexInclusive"}},
    {"ParrainCirce", "CirceParrain", "CirceParrain", "Circe", {"Parrain"}},
    {"SymmetryCirce", "CirceSymetrique", "SymmetrieCirce", "Circe", {"Symmetry"}, {"RexInclusive"}},
    {"CirceClone", "CirceClone", "CirceClone", "Circe", {"Clone"}, {"RexInclusive"}},
    {"MirrorFileCirce", "FileCirceMalefique", "SpiegelFileCirce", "Circe", {"Mirror", "File"}, {"RexInclusive"}},
    {"AntipodeanCirce", "CirceAntipoden", "AntipodenCirce", "Circe", {"Antipodes"}, {"RexInclusive"}},
    {"MirrorCirceClone", "CirceCloneMalefique", "SpiegelCirceclone", "Circe", {"Mirror", "Clone"}, {"RexInclusive"}},
    {"MirrorAntiCirce", "AntiCirceMalefique", "AntiSpiegelCirce", "AntiCirce", {"Mirror"}, {"Calvet", "Cheylan"}},
    {"DiagramAntiCirce", "AntiCirceDiagramme", "AntiDiagrammCirce", "AntiCirce", {"Diagram"}, {"Calvet", "Cheylan"}},
    {"FileAntiCirce", "AntiFileCirce", "AntiFileCirce", "AntiCirce", {"File"}, {"Calvet", "Cheylan"}},
    {"SymmetryAntiCirce",
     "AntiCirceSymetrique",
     "AntiSymmetrieCirce",
     "AntiCirce",
     {"Symmetry"},
     {"Calvet", "Cheylan"}},
    {"MirrorFileAntiCirce",
     "AntiFileCirceMalefique",
     "AntiSpiegelFileCirce",
     "AntiCirce",
     {"Mirror", "File"},
     {"Calvet", "Cheylan"}},
    {"AntipodeanAntiCirce",
     "AntiCirceAntipoden",
     "AntiAntipodenCirce",
     "AntiCirce",
     {"Antipodes"},
     {"Calvet", "Cheylan"}},
    {"EquipollentsAntiCirce",
     "AntiCirceEquipollents",
     "AntiEquipollentsCirce",
     "AntiCirce",
     {"Equipollents"},
     {"Calvet", "Cheylan"}},
    {"SuperCirce", "SuperCirce", "SuperCirce", "Circe", {"Super"}},
    {"FrischAufCirce", "FrischAufCirce", "FrischAufCirce", "Circe", {"Frischauf"}, {"RexInclusive"}},
    {"VerticalMirrorCirce",
     "CirceMalefiqueVerticale",
     "VertikalesSpiegelCirce",
     "Circe",
     {"VerticalMirror"},
     {"RexInclusive"}},
    {"DiametralCirce", "CirceDiametrale", "DiametralCirce", "Circe", {"Diametral"}, {"RexInclusive"}},
    {"RankCirce", "RankCirce", "RankCirce", "Circe", {"Rank"}, {"RexInclusive"}},
    {"MarsMirrorCirce", "MarsCirceMalefique", "MarsSpiegelCirce", "MarsCirce", {"Mirror"}, {"RexExclusive"}},
    {"MirrorCouscousCirce",
     "CirceCouscousMalefique",
     "SpiegelCouscousCirce",
     "Circe",
     {"Mirror", "Couscous"},
     {"RexInclusive"}},
    {"CirceAssassin", "CirceAssassin", "AssassinCirce", "Circe", {"Assassin"}, {"RexInclusive"}},
    {"AprilChess", "EchecsAvril", "Aprilschach", "Circe", {"Super", "StrictByDefault", "April"}},
    {"CirceTurncoats", "CirceTurncoats", "TurncoatCirce", "Circe", {"Turncoats"}},
    {"CirceDoubleAgents",
     "CirceDoubleAgents",
     "DoppelAgentenCirce",
     "Circe",
     {"Turncoats", "Mirror"},
     {"RexInclusive"}},
    {"AntiMarsMirrorCirce",
     "AntiMarsMalefiqueCirce",
     "AntiMarsMalefiqueCirce",
     "AntiMarsCirce",
     {"Mirror"},
     {"RexExclusive"}},
    {"AntiMarsAntipodeanCirce",
     "AntiMarsAntipodeanCirce",
     "AntiMarsAntipodeanCirce",
     "AntiMarsCirce",
     {"Antipodes"},
     {"RexExclusive"}},
    {"AntiSuperCirce", "AntiSuperCirce", "AntiSuperCirce", "AntiCirce", {"Super"}, {"Calvet", "Cheylan"}},
    {"CageCirce", "CirceCage", "KaefigCirce", "Circe", {"Cage"}},
    {"ContraParrain", "ContraParrain", "KontraParrain", "Circe", {"ContraParrain"}},
    {"CirceTake&Make", "CirceTake&Make", "CirceTake&Make", "Circe", {"Take&Make"}},
    {"AntiCloneCirce", "AntiCloneCirce", "AntiCloneCirce", "AntiCirce", {"Clone"}},
    {"VerticalSymmetryCirce",
     "CirceSymetriqueVerticale",
     "VertikaleSymmetrieCirce",
     "Circe",
     {"VerticalSymmetry"},
     {"RexInclusive"}},
    {"HorizontalSymmetryCirce",
     "CirceSymetriqueHorizontale",
     "HorizontaleSymmetrieCirce",
     "Circe",
     {"HorizontalSymmetry"},
     {"RexInclusive"}},
    {"VerticalSymmetryAntiCirce",
     "AntiCirceSymetriqueVerticale",
     "VertikaleAntiSymmetrieCirce",
     "AntiCirce",
     {"VerticalSymmetry"},
     {"Calvet", "Cheylan"}},
    {"HorizontalSymmetryAntiCirce",
     "AntiCirceSymetriqueHorizontale",
     "HorizontaleAntiSymmetrieCirce",
     "AntiCirce",
     {"HorizontalSymmetry"},
     {"Calvet", "Cheylan"}},
    {"LastCapture", "DernierePrise", "LetzterSchlag", kLastCapture},
    // Popeye conditions outside the Circe family: known, so that they are reported as
    // unsupported rather than unknown, and so that prefixes resolve as in Popeye.
    {"Madrasi", "Madrasi", "Madrasi", ""},
    {"ImmunChess", "Immun", "Immunschach", ""},
    {"MirrorImmunChess", "ImmunMalefique", "SpiegelImmunschach", ""},
    {"FileImmunChess", "ImmunFile", "FileImmunSchach", ""},
    {"DiagramImmunChess", "ImmunDiagramme", "DiagrammImmunSchach", ""},
    {"MirrorFileImmunChess", "ImmunFileMalefique", "SpiegelFileImmunSchach", ""},
    {"SymmetryImmunChess", "ImmunSymmetrique", "SymmetrieImmunSchach", ""},
    {"AntipodeanImmunChess", "ImmunAntipoden", "AntipodenImmunSchach", ""},
    {"EquipollentsImmunChess", "ImmunEquipollents", "EquipollentsImmunSchach", ""},
    {"PhantomChess", "EchecsPhantom", "PhantomSchach", ""},
    {"GenevaChess", "EchecsGeneve", "GenferSchach", ""},
    {"Take&MakeChess", "Take&MakeEchecs", "Take&MakeSchach", ""},
    {"ChameleonChess", "EchecsCameleon", "ChamaeleonSchach", ""},
    {"ChameleonSequence", "CameleonSequence", "Chamaeleonsequenz", ""},
    {"Isardam", "Isardam", "Isardam", ""},
    {"MagicSquares", "CaseMagique", "MagischeFelder", ""},
    {"Monochrome", "Monochromatique", "MonochromesSchach", ""},
    {"Bichrome", "Bichromatique", "BichromesSchach", ""},
    {"Patrouille", "Patrouille", "PatrouilleSchach", ""},
    {"NoCapture", "SansPrises", "Ohneschlag", ""},
    {"Imitator", "Imitator", "Imitator", ""},
    {"KoeKo", "Koeko", "KoeKo", ""},
    {"AntiKoeko", "AntiKoeko", "AntiKoeko", ""},
    {"Sentinelles", "Sentinelles", "Sentinelles", ""},
    {"Volage", "Volage", "Volage", ""},
    {"Hypervolage", "Hypervolage", "Hypervolage", ""},
    {"GridChess", "Grille", "Gitterschach", ""},
    {"Leofamily", "Leofamily", "Leofamily", ""},
    {"ChineseChess", "Chinoises", "ChinesischesSchach", ""},
    {"AndernachChess", "EchecsAndernach", "AndernachSchach", ""},
    {"AntiAndernachChess", "EchecsAntiAndernach", "AntiAndernachSchach", ""},
    {"EinsteinChess", "EchecsEinstein", "EinsteinSchach", ""},
    {"ReversalEinsteinChess", "ReversEchecsEinstein", "ReversesEinsteinSchach", ""},
    {"Maximummer", "Maximum", "Laengstzueger", ""},
    {"BlackMaximummer", "NoirMaximum", "SchwarzerLaengstzueger", ""},
    {"WhiteMaximummer", "BlancMaximum", "WeisserLaengstzueger", ""},
    {"BlackMinimummer", "NoirMinimum", "SchwarzerKuerzestzueger", ""},
    {"WhiteMinimummer", "BlancMinimum", "WeisserKuerzestzueger", ""},
    {"BlackMustCapture", "NoirPriseForce", "SchwarzerSchlagzwang", ""},
    {"WhiteMustCapture", "BlancPriseForce", "WeisserSchlagzwang", ""},
    {"ChecklessChess", "SansEchecs", "OhneSchach", ""},
    {"ExclusiveChess", "EchecsExclusif", "ExklusivSchach", ""},
    {"Disparate", "Disparate", "Disparate", ""},
    {"GhostChess", "EchecsGhost", "Geisterschach", ""},
    {"HauntedChess", "EchecsHantes", "Spukschach", ""},
    {"KobulKings", "RoisKobul", "KobulKoenige", ""},
    {"LosingChess", "QuiPerdGagne", "Schlagschach", ""},
    {"AntiKings", "AntiRois", "AntiKoenige", ""},
    {"Tibet", "Tibet", "TibetSchach", ""},
    {"DoubleTibet", "DoubleTibet", "DoppeltibetSchach", ""},
    {"Hole", "Trou", "Loch", ""},
    {"PromOnly", "PromSeul", "UWnur", ""},
    {"SAT", "SAT", "SAT", ""},
    {"StrictSAT", "StrictSAT", "StrictSAT", ""},
    {"Masand", "Masand", "Masand", ""},
    {"BGL", "BGL", "BGL", ""},
    {"AnnanChess", "AnnanEchecs", "Annanschach", ""},
    {"Football", "Football", "Fussball", ""},
    {"Wormholes", "TrousDeVer", "Wurmloecher", ""},
    {"MarineChess", "EchecsMarins", "MarinesSchach", ""},
    {"BackHome", "Retour", "NachHause", ""},
    {"FaceToFace", "FaceAFace", "AngesichtZuAngesicht", ""},
    {"BackToBack", "DosADos", "RueckenAnRuecken", ""},
    {"CheekToCheek", "JoueAJoue", "WangeAnWange", ""},
    {"CastlingChess", "EchecsRoque", "RochadeSchach", ""},
    {"ExchangeCastling", "EchangeRoque", "PlatzwechselRochade", ""},
    {"Dummy", "Dummy", "Dummy", ""},
    {"ShieldedKings", "ShieldedKings", "SchutzKoenige", ""},
    {"SwappingKings", "RoisEchanges", "TauschKoenige", ""},
    {"RoyalDynasty", "DynastieRoyale", "KoenigsDynastie", ""},
    {"TransmutedKings", "RoisTransmutes", "TransmutierendeKoenige", ""},
    {"ReflectiveKings", "RoisReflecteurs", "ReflektierendeKoenige", ""},
    {"VaultingKings", "VaultingKings", "VaultingKings", ""},
    {"Republican", "EchecsRepublicains", "RepublikanerSchach", ""},
    {"PlusChess", "EchecsPlus", "PlusSchach", ""},
    {"BrunnerChess", "EchecsBrunner", "BrunnerSchach", ""},
    {"CentralChess", "EchecsCentral", "ZentralSchach", ""},
    {"ExtinctionChess", "EchecsExtinction", "AusrottungsSchach", ""},
    {"MessignyChess", "EchecsMessigny", "MessignySchach", ""},
    {"SuperGuards", "Supergardes", "SuperDeckungen", ""},
    {"Lortap", "Elliuortap", "Elliuortap", ""},
    {"UltraPatrol", "UltraPatrouille", "UltraPatrouille", ""},
    {"NormalPawn", "PionNormale", "NormalBauern", ""},
    {"ProteanChess", "EchecsProtee", "ProteischesSchach", ""},
    {"TraitorChess", "EchecsTraitor", "TraitorChess", ""},
    {"NorskSjakk", "NorskSjakk", "NorskSjakk", ""},
    {"VogtlaenderChess", "EchecsVogtlaender", "VogtlaenderSchach", ""},
    {"GlasgowChess", "EchecsGlasgow", "GlasgowSchach", ""},
    {"FunctionaryChess", "EchecsFonctionnaire", "BeamtenSchach", ""},
    {"CavalierMajeur", "CavalierMajeur", "CavalierMajeur", ""},
    {"HaanerChess", "Haan", "HaanerSchach", ""},
    {"DuellistChess", "Duelliste", "Duellantenschach", ""},
    {"AlphabeticChess", "EchecsAlphabetiques", "AlphabetischesSchach", ""},
    {"UltraSchachZwang", "UltraSchachZwang", "UltraSchachZwang", ""},
    {"AMU", "AMU", "AMU", ""},
    {"MAFF", "MAFF", "MAFF", ""},
    {"OWU", "OWU", "OWU", ""},
    {"SingleBox", "SingleBox", "NurPartiesatzSteine", ""},
    {"EiffelChess", "EchecsEiffel", "EiffelSchach", ""},
    {"Woozles", "Woozles", "Woozles", ""},
    {"BiWoozles", "BiWoozles", "BiWoozles", ""},
    {"Heffalumps", "Heffalumps", "Heffalumps", ""},
    {"BiHeffalumps", "BiHeffalumps", "BiHeffalumps", ""},
};

// Circe qualifiers: Popeye's, in its three spellings, then rebirth's own ones.
struct VariantEntry {
    std::string_view en, fr, de;
};

constexpr VariantEntry kVariants[] = {
    {"RexInclusive", "RexInclusif", "RexInklusive"},
    {"RexExclusive", "RexExclusif", "RexExklusive"},
    {"Mirror", "Malefique", "Spiegel"},
    {"Assassin", "Assassin", "Assassin"},
    {"Diametral", "Diametral", "Diametral"},
    {"VerticalMirror", "MalefiqueVerticale", "VertikalSpiegel"},
    {"Clone", "Clone", "Clone"},
    {"Chameleon", "Chameleon", "Chamaeleon"},
    {"Turncoats", "Turncoats", "Turncoat"},
    {"Couscous", "Couscous", "Couscous"},
    {"LastMove", "CoupDernier", "LetzterZug"},
    {"Equipollents", "Equipollents", "Equipollents"},
    {"Parrain", "Parrain", "Parrain"},
    {"ContraParrain", "ContraParrain", "ContraParrain"},
    {"Cage", "Cage", "Kaefig"},
    {"Rank", "Rangee", "Reihe"},
    {"File", "Colonne", "File"},
    {"Symmetry", "Symetrie", "Symmetrie"},
    {"VerticalSymmetry", "VerticaleSymetrique", "VertikaleSymmetrie"},
    {"HorizontalSymmetry", "HorizontaleSymetrique", "HorizontaleSymmetrie"},
    {"Diagram", "Diagramme", "Diagramm"},
    {"PWC", "Echange", "Platzwechsel"},
    {"Antipodes", "Antipodes", "Antipoden"},
    {"Take&Make", "Take&Make", "Take&Make"},
    {"Super", "Super", "Super"},
    {"April", "Avril", "April"},
    {"Frischauf", "Frischauf", "Frischauf"},
    {"Calvet", "Calvet", "Calvet"},
    {"Cheylan", "Cheylan", "Cheylan"},
    {"Strict", "Stricte", "Strikt"},
    {"Relaxed", "Relache", "Locker"},
    {"Volcanic", "Volcanique", "Vulkan"},
    {"Parachute", "Parachute", "Fallschirm"},
    {"Einstein", "Einstein", "Einstein"},
    {"ReversalEinstein", "ReversEinstein", "ReversesEinstein"},
    {"Ultra", "Ultra", "Ultra"},
    {"Kamikaze", "Kamikaze", "Kamikaze"},
    {"Hydra", "Hydra", "Hydra"},
    {"Atom", "Atom", "Atom"},
    {"Alsatian", "Alsatian", "Alsatian"},
    {"CaptureSquare", "CaseDePrise", "Schlagfeld"},
    {"WaitCapture", "PriseProchaine", "NaechsterSchlag"},
};

// An entry's name in `lang`.
template <typename Entry>
std::string_view name_in(const Entry& e, Language lang) {
    return lang == Language::French ? e.fr : lang == Language::German ? e.de : e.en;
}

template <typename Entry, size_t N>
std::vector<std::string_view> names_of(const Entry (&table)[N], Language lang) {
    std::vector<std::string_view> out;
    out.reserve(N);
    for (const Entry& e : table) out.push_back(name_in(e, lang));
    return out;
}

bool has_digit(std::string_view s) {
    for (char c : s)
        if (std::isdigit(static_cast<unsigned char>(c))) return true;
    return false;
}

// English walk code of `code` in `lang` (case-insensitive), or "" if it is no walk code.
std::string english_walk(std::string_view code, Language lang) {
    if (code.empty() || code.size() > 2 || has_digit(code)) return "";
    const Walk w = walk_from_code(code, lang);
    return w == NO_WALK ? "" : std::string(walk_code(w, Language::English));
}

// Reads LastCapture's colour and unit-on-square ("wh bg4") into `args` as "White", "Bg4".
void parse_last_capture(Lexer& lex, Language lang, std::vector<std::string>& args) {
    const auto colour_tok = lex.next();
    if (!colour_tok) throw InputError(lex.file(), lex.last_line(), std::string(kLastCapture), "colour expected after");
    const Match c = match_keyword(colour_tok->text, colour_words(lang));
    if (!c.found() || c.index > 1) lex.fail(*colour_tok, "unknown colour");
    args.emplace_back(c.index == 0 ? "White" : "Black");
    const auto piece_tok = lex.next();
    if (!piece_tok) throw InputError(lex.file(), lex.last_line(), colour_tok->text, "unit and square expected after");
    const std::string& t = piece_tok->text;
    const size_t code_len = t.size() == 3 ? 1 : 2;
    if (t.size() < 3 || t.size() > 4) lex.fail(*piece_tok, "unit on a square expected, like bg4:");
    const std::string walk = english_walk(std::string_view(t).substr(0, code_len), lang);
    if (walk.empty()) lex.fail(*piece_tok, "unknown walk in");
    const Square sq = parse_square(std::string_view(t).substr(code_len));
    if (sq == SQ_NONE) lex.fail(*piece_tok, "bad square in");
    args.push_back(walk + square_name(sq));
}

}  // namespace

std::vector<Condition> parse_conditions(Lexer& lex, Language lang) {
    static const std::vector<std::string_view> cond_names[3] = {names_of(kConditions, Language::English),
                                                                names_of(kConditions, Language::French),
                                                                names_of(kConditions, Language::German)};
    static const std::vector<std::string_view> variant_names[3] = {names_of(kVariants, Language::English),
                                                                   names_of(kVariants, Language::French),
                                                                   names_of(kVariants, Language::German)};
    const auto& conds = cond_names[static_cast<int>(lang)];
    const auto& variants = variant_names[static_cast<int>(lang)];

    std::vector<Condition> out;
    bool walk_sequence = false;              // after Chameleon or April: a list of walks
    const CondEntry* traditional = nullptr;  // out.back()'s traditional name, if it was one
    while (auto tok = lex.next()) {
        if (!out.empty() && walk_sequence) {
            const std::string walk = english_walk(tok->text, lang);
            if (!walk.empty()) {
                out.back().args.push_back(walk);
                continue;
            }
            walk_sequence = false;
        }
        if (has_digit(tok->text)) {
            lex.push_back(*tok);
            break;
        }
        if (!out.empty() && out.back().name != kLastCapture) {
            const Match v = match_keyword(tok->text, variants);
            if (v.found()) {
                const std::string_view name = kVariants[v.index].en;
                // Popeye 4.104 reads no qualifier after a traditional name but the ones its
                // entry's `follow` names (any other is an input error there, the word ignored):
                // rebirth refuses it rather than solve other rules than Popeye.
                if (traditional && name != traditional->follow[0] && name != traditional->follow[1]) {
                    const std::string_view shown = name_in(*traditional, lang);
                    lex.fail(*tok, "Popeye takes no such qualifier after " + std::string(shown) + " (write " +
                                       std::string(traditional->base) + " and its qualifiers instead):");
                }
                out.back().args.emplace_back(name);
                walk_sequence = name == "Chameleon" || name == "April";
                continue;
            }
        }
        const Match m = match_keyword(tok->text, conds);
        if (!m.found()) {
            lex.push_back(*tok);
            break;
        }
        const CondEntry& e = kConditions[m.index];
        if (e.base.empty()) lex.fail(*tok, "condition not supported by rebirth (only the Circe family is):");
        if (e.base == kLastCapture) {
            // A qualifier of the condition before it (Circe Parrain), else a condition.
            if (!out.empty() && out.back().name != kLastCapture) {
                out.back().args.emplace_back(kLastCapture);
            } else {
                out.push_back(Condition{std::string(kLastCapture), {}});
                traditional = nullptr;
            }
            parse_last_capture(lex, lang, out.back().args);
            walk_sequence = false;
            continue;
        }
        Condition c{std::string(e.base), {}};
        for (std::string_view a : e.args)
            if (!a.empty()) c.args.emplace_back(a);
        traditional = c.args.empty() ? nullptr : &e;
        walk_sequence = !c.args.empty() && (c.args.back() == "Chameleon" || c.args.back() == "April");
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace rebirth::popeye
