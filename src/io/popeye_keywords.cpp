#include <array>
#include <cctype>

#include "io/popeye_parse.h"

namespace rebirth::popeye {

namespace {

using Words = std::span<const std::string_view>;

constexpr size_t kCommands = static_cast<size_t>(Command::Count);
constexpr size_t kOptions = static_cast<size_t>(Opt::Count);
constexpr size_t kTwinWords = static_cast<size_t>(TwinWord::Count);
constexpr size_t kAttributes = static_cast<size_t>(Attribute::Count);

// Order: Command enum.
constexpr std::array<std::string_view, kCommands> kCommandsEn{
    "BeginProblem", "EndProblem", "NextProblem",      "Remark",      "SStipulation", "Author",      "Origin",
    "Pieces",       "Condition",  "Option",           "Stipulation", "Protocol",     "Title",       "LaTeX",
    "LaTeXPieces",  "Award",      "InitialGameArray", "Forsyth",     "Twin",         "ZeroPosition"};
constexpr std::array<std::string_view, kCommands> kCommandsFr{"DebutProbleme",
                                                              "FinProbleme",
                                                              "ASuivre",
                                                              "Remarque",
                                                              "SEnonce",
                                                              "Auteur",
                                                              "Source",
                                                              "Pieces",
                                                              "Condition",
                                                              "Option",
                                                              "Enonce",
                                                              "Protocol",
                                                              "Titre",
                                                              "LaTeX",
                                                              "PiecesLaTeX",
                                                              "Prix",
                                                              "PositionInitialePartie",
                                                              "Forsyth",
                                                              "Jumeau",
                                                              "ZeroPosition"};
constexpr std::array<std::string_view, kCommands> kCommandsDe{"AnfangProblem",
                                                              "EndeProblem",
                                                              "WeiteresProblem",
                                                              "Bemerkung",
                                                              "SForderung",
                                                              "Autor",
                                                              "Quelle",
                                                              "Steine",
                                                              "Bedingung",
                                                              "Option",
                                                              "Forderung",
                                                              "Protokoll",
                                                              "Titel",
                                                              "LaTeX",
                                                              "LaTeXSteine",
                                                              "Auszeichnung",
                                                              "PartieAnfangsStellung",
                                                              "Forsyth",
                                                              "Zwilling",
                                                              "NullStellung"};

// Order: Opt enum.
constexpr std::array<std::string_view, kOptions> kOptionsEn{"Defence",
                                                            "SetPlay",
                                                            "WhiteToPlay",
                                                            "Variations",
                                                            "MoveNumbers",
                                                            "StartMoveNumber",
                                                            "NoWk",
                                                            "Duplex",
                                                            "NoBk",
                                                            "Threat",
                                                            "NoThreat",
                                                            "Try",
                                                            "MaxSolutions",
                                                            "MaxFlightsquares",
                                                            "Search",
                                                            "MultiSolutions",
                                                            "NoSymmetry",
                                                            "NonTrivial",
                                                            "KeepMatingPiece",
                                                            "EnPassant",
                                                            "NoBoard",
                                                            "NoShortVariations",
                                                            "HalfDuplex",
                                                            "PostKeyPlay",
                                                            "Intelligent",
                                                            "MaxTime",
                                                            "NoCastling",
                                                            "Quodlibet",
                                                            "StopOnShortSolutions",
                                                            "Beep",
                                                            "SuppressGrid",
                                                            "WriteGrid",
                                                            "CastlingMutuallyExclusive",
                                                            "GoalIsEnd",
                                                            "BlackToPlay",
                                                            "RetroDepth",
                                                            "Proca",
                                                            "Hoeg",
                                                            "NoForwardDefence",
                                                            "Klan",
                                                            "Pacific"};
constexpr std::array<std::string_view, kOptions> kOptionsFr{"Defense",
                                                            "Apparent",
                                                            "ApparentSeul",
                                                            "Variantes",
                                                            "Trace",
                                                            "Enroute",
                                                            "SansRB",
                                                            "Duplex",
                                                            "SansRN",
                                                            "Menace",
                                                            "SansMenace",
                                                            "Essais",
                                                            "MaxSolutions",
                                                            "MaxCasesFuites",
                                                            "Search",
                                                            "MultiSolutions",
                                                            "NonSymetrique",
                                                            "NonTrivial",
                                                            "RetiensPieceMatante",
                                                            "EnPassant",
                                                            "SansEchiquier",
                                                            "SansVariantesCourtes",
                                                            "DemiDuplex",
                                                            "ApresCle",
                                                            "Intelligent",
                                                            "MaxTemps",
                                                            "SansRoquer",
                                                            "Quodlibet",
                                                            "FinApresSolutionsCourtes",
                                                            "Bip",
                                                            "SansGrille",
                                                            "AjouteGrille",
                                                            "RoquesMutuellementExclusifs",
                                                            "ButEstFin",
                                                            "TraitAuxNoirs",
                                                            "ProfondeurRetro",
                                                            "Proca",
                                                            "Hoeg",
                                                            "SansDefenseEnAvant",
                                                            "Klan",
                                                            "Pacific"};
constexpr std::array<std::string_view, kOptions> kOptionsDe{"Widerlegung",
                                                            "Satzspiel",
                                                            "WeissBeginnt",
                                                            "Varianten",
                                                            "Zugnummern",
                                                            "StartZugnummer",
                                                            "OhneWk",
                                                            "Duplex",
                                                            "OhneSk",
                                                            "Drohung",
                                                            "OhneDrohung",
                                                            "Verfuehrung",
                                                            "MaxLoesungen",
                                                            "MaxFluchtFelder",
                                                            "Suchen",
                                                            "MehrereLoesungen",
                                                            "KeineSymmetrie",
                                                            "NichtTrivial",
                                                            "HalteMattsetzendenStein",
                                                            "EnPassant",
                                                            "OhneBrett",
                                                            "OhneKurzVarianten",
                                                            "HalbDuplex",
                                                            "NachSchluessel",
                                                            "Intelligent",
                                                            "MaxZeit",
                                                            "KeineRochade",
                                                            "Quodlibet",
                                                            "StopNachKurzloesungen",
                                                            "Pieps",
                                                            "OhneGitter",
                                                            "ZeichneGitter",
                                                            "RochadenGegenseitigAusschliessend",
                                                            "ZielIstEnde",
                                                            "SchwarzBeginnt",
                                                            "RetroTiefe",
                                                            "Proca",
                                                            "Hoeg",
                                                            "OhneVorwaertsVerteidigung",
                                                            "Klan",
                                                            "Pacific"};

// Order: TwinWord enum.
constexpr std::array<std::string_view, kTwinWords> kTwinEn{
    "Move",   "Exchange",  "Stipulation", "SStipulation", "Add",   "Remove",    "Continued",
    "Rotate", "Condition", "PolishType",  "Mirror",       "Shift", "Substitute"};
constexpr std::array<std::string_view, kTwinWords> kTwinFr{
    "Deplacement", "Echange",   "Enonce",         "SEnonce", "Ajoute",      "Ote",     "EnPlus",
    "Rotation",    "Condition", "CouleurEchange", "Miroir",  "Translation", "Remplace"};
constexpr std::array<std::string_view, kTwinWords> kTwinDe{
    "Versetze", "Tausche",   "Forderung",   "SForderung", "Hinzufuegen",  "Entferne", "Ferner",
    "Drehung",  "Bedingung", "Farbwechsel", "Spiegelung", "Verschiebung", "Ersetze"};

// Order: Attribute enum.
constexpr std::array<std::string_view, kAttributes> kAttrEn{
    "Royal",       "Kamikaze",    "Paralysing",           "Chameleon", "Jigger", "Volage",
    "Functionary", "HalfNeutral", "HurdleColourChanging", "Protean",   "Magic",  "Uncapturable",
    "Patrol",      "Frischauf"};
constexpr std::array<std::string_view, kAttributes> kAttrFr{"Royale",        "Kamikaze",   "Paralysante",
                                                            "Cameleon",      "Jigger",     "Volage",
                                                            "Fonctionnaire", "DemiNeutre", "CouleurEchangeantSautoir",
                                                            "Protee",        "Magique",    "Imprenable",
                                                            "Patrouille",    "Frischauf"};
constexpr std::array<std::string_view, kAttributes> kAttrDe{"Koeniglich", "Kamikaze",    "Paralysierend",
                                                            "Chamaeleon", "Jigger",      "Volage",
                                                            "Beamtet",    "HalbNeutral", "SprungbockFarbeWechselnd",
                                                            "Proteisch",  "Magisch",     "Unschlagbar",
                                                            "Patrouille", "Frischauf"};

constexpr std::array<std::string_view, 3> kColoursEn{"White", "Black", "Neutral"};
constexpr std::array<std::string_view, 3> kColoursFr{"Blanc", "Noir", "Neutre"};
constexpr std::array<std::string_view, 3> kColoursDe{"Weiss", "Schwarz", "Neutral"};

template <size_t N>
Words pick(Language lang, const std::array<std::string_view, N>& en, const std::array<std::string_view, N>& fr,
           const std::array<std::string_view, N>& de) {
    switch (lang) {
        case Language::French:
            return fr;
        case Language::German:
            return de;
        default:
            return en;
    }
}

}  // namespace

Match match_keyword(std::string_view word, std::span<const std::string_view> keywords) {
    Match m;
    if (word.empty()) return m;
    int prefix_hits = 0;
    for (size_t i = 0; i < keywords.size(); ++i) {
        const std::string_view k = keywords[i];
        if (iequals(word, k)) return Match{static_cast<int>(i), false};
        if (word.size() < k.size() && iequals(word, k.substr(0, word.size()))) {
            if (prefix_hits++ == 0) m.index = static_cast<int>(i);
        }
    }
    if (prefix_hits > 1) return Match{-1, true};
    return m;
}

Words command_words(Language lang) { return pick(lang, kCommandsEn, kCommandsFr, kCommandsDe); }
Words option_words(Language lang) { return pick(lang, kOptionsEn, kOptionsFr, kOptionsDe); }
Words twin_words(Language lang) { return pick(lang, kTwinEn, kTwinFr, kTwinDe); }
Words attribute_words(Language lang) { return pick(lang, kAttrEn, kAttrFr, kAttrDe); }
Words colour_words(Language lang) { return pick(lang, kColoursEn, kColoursFr, kColoursDe); }

std::string_view option_name_en(Opt opt) { return kOptionsEn[static_cast<size_t>(opt)]; }

std::string_view colour_letter(Color c, Language lang) {
    if (c == WHITE) return lang == Language::French ? "b" : "w";
    switch (lang) {
        case Language::French:
            return "n";
        case Language::German:
            return "s";
        default:
            return "b";
    }
}

}  // namespace rebirth::popeye
