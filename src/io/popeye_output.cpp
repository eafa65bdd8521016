#include "rebirth/popeye_output.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "rebirth/notation.h"
#include "rebirth/text.h"
#include "rebirth/walk.h"

namespace rebirth {

namespace {

// Popeye's diagram: 8 files of 4 columns plus a 5-column frame.
constexpr int kFileWidth = 4;
constexpr int kBoardWidth = kFileWidth * 8 + 5;
// The piece count is right-aligned so that it ends in this column.
constexpr int kCountEnd = kFileWidth * 8 + 3;

// `text` right-aligned in `width` columns; unpadded when it does not fit (Popeye's fprintf_r).
std::string right_aligned(std::string_view text, int width) {
    std::string result;
    if (width > static_cast<int>(text.size())) result.assign(width - text.size(), ' ');
    result += text;
    return result;
}

// Every '\n'-terminated line of `text` (a last unterminated line counts too) centred.
std::string centre_lines(std::string_view text) {
    std::string result;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        result += centre_line(text.substr(start, end - start));
        start = end + 1;
    }
    return result;
}

// The walk's letters as Popeye prints them in diagrams and condition lines.
std::string walk_letters(Walk walk, Language language) { return to_upper(walk_code(walk, language)); }

// Position of a walk in Popeye's own walk enumeration (K P Q S R B ... G N), which fixes
// the order of walk lists and chameleon cycles in condition lines.
int popeye_walk_rank(Walk walk) {
    static constexpr std::string_view kOrder[] = {"K", "P", "Q", "S", "R", "B"};
    std::string_view code = walk_info(walk).code_en;
    for (int i = 0; i < 6; ++i)
        if (code == kOrder[i]) return 2 + i;
    if (code == "G") return 13;
    if (code == "N") return 14;
    return 200 + walk;
}

// A walk named by its English letters, or by the problem language's letters if not English.
Walk walk_from_arg(std::string_view arg, Language language) {
    Walk w = walk_from_code(arg, Language::English);
    if (w == NO_WALK) w = walk_from_code(arg, language);
    return w;
}

// A word Popeye prints in the problem's language.
struct WordRow {
    std::string_view en, de, fr;
};

std::string_view word_in(const WordRow& row, Language language) {
    switch (language) {
        case Language::German:
            return row.de;
        case Language::French:
            return row.fr;
        default:
            return row.en;
    }
}

// The Circe-variant words, in the order Popeye writes them after the condition name.
enum Variant {
    V_PWC,
    V_SYMMETRY,
    V_VERTICAL_SYMMETRY,
    V_HORIZONTAL_SYMMETRY,
    V_DIAGRAM,
    V_CAGE,
    V_RANK,
    V_FILE,
    V_COUSCOUS,
    V_ANTIPODES,
    V_TAKE_AND_MAKE,
    V_SUPER,
    V_CAPTURE_SQUARE,
    V_APRIL,
    V_EQUIPOLLENTS,
    V_CONTRA_PARRAIN,
    V_PARRAIN,
    V_WAIT_CAPTURE,
    V_MIRROR,
    V_ASSASSIN,
    V_STRICT,
    V_RELAXED,
    V_PARACHUTE,
    V_VOLCANIC,
    V_DIAMETRAL,
    V_VERTICAL_MIRROR,
    V_CLONE,
    V_EINSTEIN,
    V_REVERSAL_EINSTEIN,
    V_CHAMELEON,
    V_TURNCOATS,
    V_FRISCHAUF,
    V_CHEYLAN,
    V_REX_INCLUSIVE,
    V_REX_EXCLUSIVE,
    V_COUNT
};

constexpr WordRow kVariantWords[V_COUNT] = {
    {"PWC", "Platzwechsel", "Echange"},
    {"Symmetry", "Symmetrie", "Symetrie"},
    {"VerticalSymmetry", "VertikaleSymmetrie", "VerticaleSymetrique"},
    {"HorizontalSymmetry", "HorizontaleSymmetrie", "HorizontaleSymetrique"},
    {"Diagram", "Diagramm", "Diagramme"},
    {"Cage", "Kaefig", "Cage"},
    {"Rank", "Reihe", "Rangee"},
    {"File", "File", "Colonne"},
    {"Couscous", "Couscous", "Couscous"},
    {"Antipodes", "Antipoden", "Antipodes"},
    {"Take&Make", "Take&Make", "Take&Make"},
    {"Super", "Super", "Super"},
    {"CaptureSquare", "Schlagfeld", "CaseDePrise"},
    {"April", "April", "Avril"},
    {"Equipollents", "Equipollents", "Equipollents"},
    {"ContraParrain", "ContraParrain", "ContraParrain"},
    {"Parrain", "Parrain", "Parrain"},
    {"WaitCapture", "NaechsterSchlag", "PriseProchaine"},
    {"Mirror", "Spiegel", "Malefique"},
    {"Assassin", "Assassin", "Assassin"},
    {"Strict", "Strikt", "Stricte"},
    {"Relaxed", "Locker", "Relache"},
    {"Parachute", "Fallschirm", "Parachute"},
    {"Volcanic", "Vulkan", "Volcanique"},
    {"Diametral", "Diametral", "Diametral"},
    {"VerticalMirror", "VertikalSpiegel", "MalefiqueVerticale"},
    {"Clone", "Clone", "Clone"},
    {"Einstein", "Einstein", "Einstein"},
    {"ReversalEinstein", "ReversesEinstein", "ReversEinstein"},
    {"Chameleon", "Chamaeleon", "Chameleon"},
    {"Turncoats", "Turncoat", "Turncoats"},
    {"Frischauf", "Frischauf", "Frischauf"},
    {"Cheylan", "Cheylan", "Cheylan"},
    {"RexInclusive", "RexInklusive", "RexInclusif"},
    {"RexExclusive", "RexExklusive", "RexExclusif"},
};

// A condition Popeye knows: its rank in Popeye's condition enumeration (which fixes the line
// order), its names, whether it takes Circe variants and which rex word is its default.
struct ConditionInfo {
    std::string_view canonical;
    int rank;
    WordRow names;
    bool circe_variants;
    Variant rex_default;
};

constexpr ConditionInfo kConditions[] = {
    {"Circe", 0, {"Circe", "Circe", "Circe"}, true, V_REX_EXCLUSIVE},
    {"Madrasi", 2, {"Madrasi", "Madrasi", "Madrasi"}, false, V_REX_EXCLUSIVE},
    {"ImmunChess", 16, {"ImmunChess", "Immunschach", "Immun"}, true, V_REX_EXCLUSIVE},
    {"AntiCirce", 51, {"AntiCirce", "AntiCirce", "AntiCirce"}, true, V_REX_INCLUSIVE},
    {"Isardam", 84, {"Isardam", "Isardam", "Isardam"}, false, V_REX_EXCLUSIVE},
    {"MarsCirce", 90, {"MarsCirce", "MarsCirce", "MarsCirce"}, true, V_REX_INCLUSIVE},
    {"PhantomChess", 92, {"PhantomChess", "PhantomSchach", "EchecsPhantom"}, true, V_REX_EXCLUSIVE},
    {"AntiMarsCirce", 138, {"AntiMarsCirce", "AntiMarsCirce", "AntiMarsCirce"}, true, V_REX_INCLUSIVE},
    {"GenevaChess", 164, {"GenevaChess", "GenferSchach", "EchecsGeneve"}, true, V_REX_EXCLUSIVE},
};

// LastCapture: a condition line of its own, however the qualifier was given.
constexpr ConditionInfo kLastCaptureInfo{
    "LastCapture", 194, {"LastCapture", "LetzterSchlag", "DernierePrise"}, false, V_REX_EXCLUSIVE};
// Conditions this printer does not know follow the known ones, in input order.
constexpr int kUnknownRank = 1000;

const ConditionInfo* find_condition(std::string_view name) {
    if (iequals(kLastCaptureInfo.canonical, name)) return &kLastCaptureInfo;
    for (const ConditionInfo& info : kConditions)
        if (iequals(info.canonical, name)) return &info;
    return nullptr;
}

int find_variant(std::string_view word) {
    for (int v = 0; v < V_COUNT; ++v)
        if (iequals(kVariantWords[v].en, word)) return v;
    return -1;
}

bool is_colour_word(std::string_view word) {
    return iequals(word, "White") || iequals(word, "Black") || iequals(word, "Neutral");
}

// "Bg4", "wBg4": a unit on a square, as a LastCapture qualifier names it.
bool is_unit_on_square(std::string_view word) {
    return word.size() >= 3 && word.size() <= 5 && parse_square(word.substr(word.size() - 2)) != SQ_NONE;
}

// One condition line to be written, with the key that orders it among the others.
struct CondLine {
    int rank;
    size_t input_index;
    std::string text;
};

// " Q->R->B->S->Q": the cycles of the successor map given by consecutive walk letters (an
// open sequence closed from its last walk to its first), each started at its first walk in
// Popeye's walk order.
std::string chameleon_sequence(const std::vector<std::string>& letters, Language language) {
    std::vector<std::pair<Walk, Walk>> successor;  // walk -> next walk
    std::vector<Walk> walks;
    for (const std::string& letter : letters) {
        Walk w = walk_from_arg(letter, language);
        if (w != NO_WALK) walks.push_back(w);
    }
    auto next_of = [&successor](Walk w) {
        for (auto [from, to] : successor)
            if (from == w) return to;
        return w;
    };
    for (size_t i = 0; i + 1 < walks.size(); ++i) {
        auto it = std::find_if(successor.begin(), successor.end(), [&](auto& p) { return p.first == walks[i]; });
        if (it != successor.end())
            it->second = walks[i + 1];
        else
            successor.emplace_back(walks[i], walks[i + 1]);
    }
    // An open sequence is closed, as the rules read it (Q R: Q->R->Q).
    if (walks.size() >= 2 && walks.back() != walks.front() && next_of(walks.back()) == walks.back())
        successor.emplace_back(walks.back(), walks.front());
    std::vector<Walk> starts;
    for (auto [from, to] : successor)
        if (from != to) starts.push_back(from);
    std::sort(starts.begin(), starts.end(), [](Walk a, Walk b) { return popeye_walk_rank(a) < popeye_walk_rank(b); });

    std::string result = " ";
    std::vector<Walk> written;
    for (Walk start : starts) {
        if (std::find(written.begin(), written.end(), start) != written.end()) continue;
        result += walk_letters(start, language);
        Walk q = start;
        do {
            q = next_of(q);
            result += "->";
            result += walk_letters(q, language);
            if (std::find(written.begin(), written.end(), q) != written.end()) break;  // open chain
            written.push_back(q);
        } while (q != start);
    }
    return result;
}

// The words after a Circe-family condition name, in Popeye's order, each with a leading
// blank. A LastCapture qualifier (Popeye writes it as a condition line of its own) is left
// out and sets `last_capture`.
std::string circe_variant_words(const ConditionInfo& info, const std::vector<std::string>& args, Language language,
                                bool& last_capture) {
    // Each known word with the non-variant words that follow it (walk letters, squares...).
    std::vector<std::vector<std::string>> params(V_COUNT);
    std::vector<bool> present(V_COUNT, false);
    std::vector<std::string> unknown;
    int current = -1;  // the variant taking parameters, or -2 inside a LastCapture qualifier
    for (const std::string& arg : args) {
        if (iequals(arg, "LastCapture")) {
            last_capture = true;
            current = -2;
            continue;
        }
        int v = find_variant(arg);
        if (iequals(arg, "DoubleAgents")) {
            present[V_MIRROR] = present[V_TURNCOATS] = true;
            current = -1;
        } else if (iequals(arg, "Calvet") || iequals(arg, "LastMove") || iequals(arg, "StrictByDefault")) {
            current = -1;  // defaults Popeye never writes
        } else if (v == V_REX_INCLUSIVE || v == V_REX_EXCLUSIVE) {
            present[V_REX_INCLUSIVE] = v == V_REX_INCLUSIVE;  // the last one given counts
            present[V_REX_EXCLUSIVE] = v == V_REX_EXCLUSIVE;
            current = -1;
        } else if (v >= 0) {
            present[v] = true;
            current = v;
        } else if (current == V_CHAMELEON || current == V_APRIL) {
            params[current].push_back(arg);
        } else if (current == -2 && (is_colour_word(arg) || is_unit_on_square(arg))) {
            // colour and piece-on-square of the LastCapture qualifier: not written
        } else {
            unknown.push_back(arg);
            current = -1;
        }
    }
    if (present[V_CONTRA_PARRAIN]) present[V_MIRROR] = true;  // Contra-Parrain is mirrored Parrain

    std::string result;
    for (int v = 0; v < V_COUNT; ++v) {
        if (!present[v]) continue;
        if (v == info.rex_default) continue;  // the condition's own rex rule is not written
        result += ' ';
        result += word_in(kVariantWords[v], language);
        if (v == V_CHAMELEON && !params[v].empty()) result += chameleon_sequence(params[v], language);
        if (v == V_APRIL) {
            std::vector<Walk> walks;
            for (const std::string& p : params[v])
                if (Walk w = walk_from_arg(p, language); w != NO_WALK) walks.push_back(w);
            std::sort(walks.begin(), walks.end(),
                      [](Walk a, Walk b) { return popeye_walk_rank(a) < popeye_walk_rank(b); });
            for (Walk w : walks) result += ' ' + walk_letters(w, language);
        }
    }
    for (const std::string& word : unknown) result += ' ' + word;
    return result;
}

std::string join_words(std::string_view first, const std::vector<std::string>& rest) {
    std::string result(first);
    for (const std::string& word : rest) result += ' ' + word;
    return result;
}

// One diagram row: "8  -R   .   K ...   8".
std::string board_row(const std::array<Piece, SQUARE_NB>& board, int rank, Language language) {
    std::string line = std::to_string(rank + 1) + " ";
    for (int file = 0; file < 8; ++file) {
        std::string cell(kFileWidth, ' ');
        const Piece piece = board[make_square(file, rank)];
        int pos = kFileWidth / 2;
        if (piece.empty()) {
            cell[pos] = '.';
        } else {
            std::string letters = walk_letters(piece.walk, language);
            if (letters.size() >= 2) {
                cell[pos] = letters[1];
                --pos;
            }
            cell[pos] = letters.empty() ? '?' : letters[0];
            --pos;
            if (piece.color == BLACK) cell[pos] = '-';
        }
        line += cell;
    }
    line += "  ";
    line += std::to_string(rank + 1);
    line += '\n';
    return line;
}

std::string border_line() {
    std::string line = "+--";
    for (char letter = 'a'; letter <= 'h'; ++letter) {
        line += '-';
        line += letter;
        line += "--";
    }
    return line + "-+\n";
}

std::string blank_line() {
    std::string line(kBoardWidth, ' ');
    line.front() = '|';
    line.back() = '|';
    return line + '\n';
}

// "w + b" right-aligned to end in Popeye's count column, after `indentation` used columns.
std::string piece_count(const std::array<Piece, SQUARE_NB>& board, int indentation) {
    int white = 0, black = 0;
    for (const Piece& piece : board) {
        if (piece.empty()) continue;
        (piece.color == WHITE ? white : black) += 1;
    }
    std::string count = std::to_string(white);
    count += " + ";
    count += std::to_string(black);
    return right_aligned(count, kCountEnd - indentation);
}

// "Kamikaze e4 d5": the squares (a8..h8, a7..h1) of the units carrying `flag`, or "".
std::string attribute_line(const std::array<Piece, SQUARE_NB>& board, std::uint8_t flag, std::string_view word,
                           bool skip_kings) {
    std::string squares;
    for (int rank = 7; rank >= 0; --rank)
        for (int file = 0; file < 8; ++file) {
            const Square sq = make_square(file, rank);
            const Piece piece = board[sq];
            if (piece.empty() || !(piece.flags & flag)) continue;
            if (skip_kings && piece.walk == KING) continue;
            squares += ' ' + square_name(sq);
        }
    if (squares.empty()) return "";
    return std::string(word) + squares;
}

// The lines under the stipulation: attributes, conditions, duplex and quodlibet options.
std::string caption_lines(const Problem& problem) {
    const Language lang = problem.language;
    const auto& board = problem.setup.board;
    std::string result;
    static constexpr WordRow kRoyal{"Royal", "Koeniglich", "Royale"};
    static constexpr WordRow kKamikaze{"Kamikaze", "Kamikaze", "Kamikaze"};
    static constexpr WordRow kFrischauf{"Frischauf", "Frischauf", "Frischauf"};
    for (const std::string& line : {attribute_line(board, PF_ROYAL, word_in(kRoyal, lang), true),
                                    attribute_line(board, PF_KAMIKAZE, word_in(kKamikaze, lang), false),
                                    attribute_line(board, PF_PROMOTED, word_in(kFrischauf, lang), false)})
        if (!line.empty()) result += centre_line(line);

    for (const std::string& line : format_condition_lines(problem.conditions, lang)) result += centre_line(line);

    static constexpr WordRow kHalfDuplex{"HalfDuplex", "HalbDuplex", "DemiDuplex"};
    if (problem.options.half_duplex)
        result += centre_line(word_in(kHalfDuplex, lang));
    else if (problem.options.duplex)
        result += centre_line("Duplex");
    for (const std::string& other : problem.options.other)
        if (iequals(other, "Quodlibet")) result += centre_line("Quodlibet");
    // CastlingMutuallyExclusive, uncentred, its pairs in Popeye's order a1a8 a1h8 h1a8 h1h8.
    const auto& exclusive = problem.options.castling_exclusive;
    if (!exclusive.empty()) {
        static constexpr WordRow kExclusive{"CastlingMutuallyExclusive", "RochadenGegenseitigAusschliessend",
                                            "RoquesMutuellementExclusifs"};
        result += word_in(kExclusive, lang);
        for (Square w : {SQ_A1, SQ_H1})
            for (Square b : {SQ_A8, SQ_H8})
                if (std::find(exclusive.begin(), exclusive.end(), std::pair{w, b}) != exclusive.end()) {
                    result += ' ';
                    result += square_name(w);
                    result += square_name(b);
                }
        result += "\n";
    }
    return result;
}

// The numbers of an Options::other entry "Name n [m]" whose name is `name`, or empty.
std::vector<std::string> other_option_numbers(const Options& options, std::string_view name) {
    for (const std::string& other : options.other) {
        std::istringstream in(other);
        std::string word;
        if (!(in >> word) || !iequals(word, name)) continue;
        std::vector<std::string> numbers;
        while (in >> word) numbers.push_back(word);
        return numbers;
    }
    return {};
}

// "  #3/2//4;1,2": the stipulation with Threat, MaxFlightsquares and NonTrivial as Popeye
// appends them.
std::string stipulation_text(const Problem& problem) {
    std::string stip = "  ";
    stip += problem.stipulation.text;
    const std::vector<std::string> flights = other_option_numbers(problem.options, "MaxFlightsquares");
    if (problem.options.threat) {
        stip += '/';
        stip += std::to_string(*problem.options.threat);
        if (!flights.empty()) stip += '/' + flights.front();
    } else if (!flights.empty()) {
        stip += "//" + flights.front();
    }
    const std::vector<std::string> nontrivial = other_option_numbers(problem.options, "NonTrivial");
    if (nontrivial.size() == 2) stip += ';' + nontrivial[0] + ',' + nontrivial[1];
    return stip;
}

// The stipulation line with the count, then the caption lines.
std::string captions(const Problem& problem) {
    const std::string stip = stipulation_text(problem);
    std::string result = stip + piece_count(problem.setup.board, static_cast<int>(stip.size())) + "\n";
    return result + caption_lines(problem);
}

std::string meta_lines(const Problem& problem) {
    std::string result = "\n";
    for (const std::string& author : problem.authors) result += centre_lines(author);
    result += centre_lines(problem.origin);
    result += centre_lines(problem.award);
    result += centre_lines(problem.title);
    return result;
}

// Popeye's messages in the three languages; `notes` arrive in English.
constexpr WordRow kMessages[] = {
    {"WhiteToPlay not applicable - ignored", "WeissBeginnt nicht anwendbar - ignoriert",
     "ApparentSeul pas applicable - ignore"},
    {"SetPlay not applicable - ignored", "Satzspiel nicht anwendbar - ignoriert", "Apparent pas applicable - ignore"},
    {"PostKeyPlay not applicable - ignored", "NachSchluessel nicht anwendbar - ignoriert",
     "ApresCle pas applicable - ignore"},
    {"Quodlibet not applicable - ignored", "Quodlibet nicht anwendbar - ignoriert",
     "Quodlibet pas applicable - ignore"},
    {"Intelligent Mode only with h#/=, ser-#/= and ser-h#/=, with a limited set of fairy conditions and without fairy "
     "pieces.",
     "Intelligent Modus nur im h#/=, ser-#/= und ser-h#/=, wenigen Maerchenbedingungen und keinen Maerchensteinen.",
     "mode intelligent seulement avec h#/=, ser-#/= et ser-h#/=, facultativement avec certaines conditions, et sans "
     "pieces feeriques."},
    {"Option \"Threat\" not applicable or indicated maximum threat length too big",
     "Option \"Drohung\" nicht anwendbar order maximale Laenge der Drohung zu gross",
     "Option \"menace\" pas applicable ou longueur maximale de la menace trop grande"},
};

// Whether Popeye writes note `note` when it starts solving (after the header, and after a
// twin's announcement) rather than when it sets up the stipulation (before the board, and
// before the announcement of a twin that sets a stipulation): the notes of the options its
// solving machinery finds not applicable (SetPlay, Intelligent, Threat), not those of its stipulation
// modifiers (Quodlibet, WhiteToPlay, PostKeyPlay). Measured against Popeye 4.104 with twins.
bool solving_note(const std::string& note) {
    return note.starts_with("SetPlay") || note.starts_with("Intelligent Mode") || note.starts_with("Option \"Threat\"");
}

// The problem's notes of one kind (`solving`: see solving_note), in its language.
std::string notes_text(const Problem& problem, bool solving) {
    std::string result;
    for (const std::string& note : problem.notes) {
        if (solving_note(note) != solving) continue;
        auto known = std::find_if(std::begin(kMessages), std::end(kMessages),
                                  [&note](const WordRow& row) { return row.en == note; });
        result += known == std::end(kMessages) ? note : std::string(word_in(*known, problem.language));
        result += '\n';
    }
    return result;
}

// The lines Popeye writes while reading and preparing the problem, before the header.
std::string preamble(const Problem& problem) {
    std::string result;
    for (const std::string& remark : problem.remarks) result += remark + '\n';
    static constexpr WordRow kUnderworld{" already occupied - old piece goes to the underworld.",
                                         " ist bereits besetzt - alter Stein geht in die Unterwelt.",
                                         " deja occupee - piece ancienne va dans l'au-dela."};
    for (const Problem::Buried& buried : problem.underworld) {
        result += square_name(buried.square);
        result += word_in(kUnderworld, problem.language);
        result += '\n';
    }
    return result + notes_text(problem, false);
}

}  // namespace

std::string centre_line(std::string_view line) {
    const int used = static_cast<int>(line.size()) + 1;  // Popeye counts the '\n'
    std::string result;
    if (kBoardWidth > used) result.assign(std::max(1, (kBoardWidth + 1 - used) / 2), ' ');
    result += line;
    result += '\n';
    return result;
}

std::string format_board(const std::array<Piece, SQUARE_NB>& board, Language language) {
    std::string result = "\n";
    result += border_line();
    result += blank_line();
    for (int rank = 7; rank >= 0; --rank) result += board_row(board, rank, language) + blank_line();
    return result + border_line();
}

std::string format_board(const Problem& problem) { return format_board(problem.setup.board, problem.language); }

std::vector<std::string> format_condition_lines(const std::vector<Condition>& conditions, Language language) {
    // Popeye keeps one flag per condition: a condition given twice is one line, its
    // qualifiers merged ("circe" and "circeclone" make "Circe Clone").
    std::vector<Condition> merged;
    for (const Condition& cond : conditions) {
        auto same = std::find_if(merged.begin(), merged.end(),
                                 [&cond](const Condition& m) { return iequals(m.name, cond.name); });
        if (same == merged.end())
            merged.push_back(cond);
        else
            same->args.insert(same->args.end(), cond.args.begin(), cond.args.end());
    }

    std::vector<CondLine> lines;
    bool last_capture = false;
    for (size_t i = 0; i < merged.size(); ++i) {
        const Condition& cond = merged[i];
        const ConditionInfo* info = find_condition(cond.name);
        if (!info) {
            lines.push_back({kUnknownRank, i, join_words(cond.name, cond.args)});
        } else if (info->canonical == kLastCaptureInfo.canonical) {
            last_capture = true;
        } else if (info->circe_variants) {
            std::string text(word_in(info->names, language));
            text += circe_variant_words(*info, cond.args, language, last_capture);
            lines.push_back({info->rank, i, std::move(text)});
        } else {
            lines.push_back({info->rank, i, join_words(word_in(info->names, language), cond.args)});
        }
    }
    if (last_capture)
        lines.push_back({kLastCaptureInfo.rank, 0, std::string(word_in(kLastCaptureInfo.names, language))});
    std::stable_sort(lines.begin(), lines.end(), [](const CondLine& a, const CondLine& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.input_index < b.input_index;
    });
    std::vector<std::string> result;
    for (CondLine& line : lines) result.push_back(std::move(line.text));
    return result;
}

std::string format_header(const Problem& problem) {
    std::string result = preamble(problem);
    // With twins the solving notes follow each twin's announcement (format_twin_intro).
    const std::string solving = problem.twins.empty() ? notes_text(problem, true) : std::string();
    if (problem.options.no_board) return result + solving;

    result += meta_lines(problem);
    if (problem.stipulation.play == Stipulation::Play::AToB && problem.start_board) {
        static constexpr WordRow kColour[2] = {{"White", "Weiss", "Blanc"}, {"Black", "Schwarz", "Noir"}};
        result += format_board(*problem.start_board, problem.language);
        result += piece_count(*problem.start_board, 0);
        result += "\n\n";
        std::string starter = "=> (";
        // HalfDuplex plays from b with the other side (Popeye names it here too).
        const Color first = problem.options.half_duplex ? ~problem.setup.side_to_move : problem.setup.side_to_move;
        starter += word_in(kColour[first], problem.language);
        starter += " ->)";
        result += centre_line(starter);
        result += '\n';
    }
    result += format_board(problem);
    result += captions(problem);
    return result + solving;
}

namespace {

// The Twin of twin `index` (0 = a): none for a) when it is the diagram itself, which it is
// unless a ZeroPosition makes the first Twin a).
const Twin* own_twin(const Problem& problem, size_t index) {
    const bool zero = !problem.twins.empty() && problem.twins.front().zero_position;
    if (zero && index < problem.twins.size()) return &problem.twins[index];
    if (!zero && index > 0 && index <= problem.twins.size()) return &problem.twins[index - 1];
    return nullptr;
}

}  // namespace

std::string format_solving_notes(const Problem& problem) { return notes_text(problem, true); }

std::string format_twin_intro(const Problem& problem, const Problem& twin, size_t index) {
    const Twin* own = own_twin(problem, index);
    const bool sets_stipulation = own && std::any_of(own->ops.begin(), own->ops.end(), [](const TwinOp& op) {
                                      return op.kind == TwinOp::Kind::Stipulation;
                                  });
    std::string result = sets_stipulation ? notes_text(twin, false) : std::string();
    result += "\n" + format_twin_line(problem, index) + "\n";
    return result + notes_text(twin, true);
}

std::string format_twin_line(const Problem& problem, size_t index) {
    const Twin* twin = own_twin(problem, index);

    std::string result;
    if (twin && twin->continued) result += '+';
    result += static_cast<char>('a' + index % 26);
    result += ") ";
    if (!twin) return result;
    for (const TwinOp& op : twin->ops) {
        if (op.kind == TwinOp::Kind::Condition && !op.conditions.empty()) {
            for (const std::string& line : format_condition_lines(op.conditions, problem.language))
                result += line + "  ";
        } else if (op.kind == TwinOp::Kind::Stipulation && op.text.empty()) {
            result += op.stipulation.text + "  ";
        } else {
            result += op.text + "  ";
        }
    }
    return result;
}

std::string format_play_line(const Position& root, const std::vector<Move>& moves, const PlayLineStyle& style,
                             Language lang, Goal goal) {
    std::string line = "\n";
    int number = 1;
    Color numbered = style.numbered;
    if (style.skipped) {
        line += "  1...  ...";
        number = 2;
    } else if (style.dots) {
        line += "  1...";
        number = 2;
    }
    Position pos = root;
    for (size_t i = 0; i < moves.size(); ++i) {
        const Move& m = moves[i];
        if (static_cast<int>(i) == style.restart) {
            number = 1;
            numbered = style.restart_numbered;
        }
        if (m.is_null()) {
            pos.set_side_to_move_for_analysis(~pos.side_to_move());
            continue;
        }
        const bool last = i + 1 == moves.size();
        append_line_move(line, pos, m, lang, pos.side_to_move() == numbered, number,
                         !last || !goal_mark_replaces_check(goal));
        if (last)
            line += goal_mark(goal);
        else
            line += ' ';
    }
    return line;
}

void append_line_move(std::string& line, Position& pos, const Move& m, Language lang, bool numbered, int& number,
                      bool check_mark) {
    if (numbered) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%3d.", number++);
        line += buf;
    }
    line += move_to_popeye(pos, m, false, lang);
    UndoInfo u;
    pos.do_move(m, u);
    if (check_mark && pos.in_check()) line += " +";
}

namespace {

// Popeye's words for threat, zugzwang, the try separator and an inline refutation.
struct BattleWords {
    const char* threat;
    const char* zugzwang;
    const char* but;
    const char* refutes;
};

BattleWords battle_words(Language lang) {
    switch (lang) {
        case Language::German:
            return {"Drohung:", "Zugzwang.", "Aber", "Widerlegt."};
        case Language::French:
            return {"menace:", "blocus.", "mais", "Refute."};
        default:
            return {"threat:", "zugzwang.", "but", "refutes."};
    }
}

// Columns before the move number of half-move `h` of a tree (0 = the key), for a one-digit
// number; longer numbers take their extra digits from it (Popeye right-aligns them:
// BEISPIEL/ep.inp's #10 writes "10.Df7-f5 #" one column left of the "9." above).
std::string battle_indent(int h) {
    const int digits = static_cast<int>(std::to_string(h / 2 + 1).size());
    return std::string(std::max(0, (h == 0 ? 3 : 4 * h + 2) - (digits - 1)), ' ');
}

// Writes battle play's trees.
class BattleWriter {
  public:
    BattleWriter(Goal goal, Language lang) : goal_(goal), lang_(lang), words_(battle_words(lang)) {}

    // " +" after a move that gives check, or goal's mark after one that reaches it (a "~" goal
    // has no mark of its own: the check mark stays, "1.a2-a3 + !" in ~1).
    std::string mark(const Position& after, bool goal_move) const {
        if (goal_move && goal_ != Goal::Any) return std::string(goal_mark(goal_));
        return after.in_check() ? " +" : "";
    }

    // One move of the tree at half-move h (pos before it): indent, number, move and marks.
    std::string move_line(const Position& pos, const PlayNode& n, int h, Position& after) const {
        const std::string text = move_to_popeye(pos, n.move, false, lang_);
        after = pos;
        UndoInfo u;
        after.do_move(n.move, u);
        return battle_indent(h) + battle_move_number(h) + text + mark(after, n.goal);
    }

    // The attacker's moves of kind `kind` among `children` (pos: the attacker to move) at
    // half-move h, each with the play below it.
    void attacks(const Position& pos, const std::vector<PlayNode>& children, PlayNode::Kind kind, int h,
                 std::string& out) const {
        for (const PlayNode& a : children) {
            if (a.kind != kind) continue;
            Position after;
            out += move_line(pos, a, h, after);
            if (a.goal)
                out += "\n";
            else
                play(after, a, h + 1, out);
        }
    }

    // The end of an attacker's line and the play below it (pos: the defender to move, its
    // defences at half-move h): the threat or zugzwang words and the threats, then each
    // defence shown with its continuations, or refutation among them (PostKeyPlay).
    void play(const Position& pos, const PlayNode& node, int h, std::string& out) const {
        switch (node.then) {
            case PlayNode::Then::None:
                out += "\n";
                return;
            case PlayNode::Then::Threat: {
                out += std::string(" ") + words_.threat + "\n";
                Position passed = pos;
                passed.set_side_to_move_for_analysis(~pos.side_to_move());
                attacks(passed, node.children, PlayNode::Kind::Threat, h + 1, out);
                break;
            }
            case PlayNode::Then::Zugzwang:
                out += std::string(" ") + words_.zugzwang + "\n";
                break;
            default:
                out += "\n";
        }
        for (const PlayNode& d : node.children) {
            if (d.kind == PlayNode::Kind::Refutation && node.kind != PlayNode::Kind::Try) {
                Position after;
                out += move_line(pos, d, h, after) + "\n" + std::string((h == 0 ? 3 : 4 * h + 2) + 2, ' ') +
                       words_.refutes + "\n";
            } else if (d.kind == PlayNode::Kind::Defence) {
                Position after;
                out += move_line(pos, d, h, after) + "\n";
                attacks(after, d.children, PlayNode::Kind::Attack, h + 1, out);
            }
        }
    }

    std::string block(const Position& pos, const PlayNode& root) const {
        std::string out;
        switch (root.kind) {
            case PlayNode::Kind::SetPlay:
                play(pos, root, 1, out);
                return out;
            case PlayNode::Kind::PostKey:
                // The line of the absent key: an empty one before the threat or zugzwang words,
                // its check mark alone when it gave check; else an empty line only when no
                // defence follows (the defender's goal moves, or in an s#1 all its moves, start
                // right away).
                if (root.then == PlayNode::Then::Threat || root.then == PlayNode::Then::Zugzwang)
                    out = "\n";
                else if (pos.in_check())
                    out = " +";  // on the line after the header, no empty line before it
                else if (root.then == PlayNode::Then::Line && root.children.empty())
                    out = "\n";
                play(pos, root, 1, out);
                return out;
            default:
                break;
        }
        Position after;
        const std::string first = move_line(pos, root, 0, after);
        out = "\n" + first;
        if (root.kind == PlayNode::Kind::Key && root.goal) return out + " !\n";
        out += root.kind == PlayNode::Kind::Try ? " ?" : " !";
        play(after, root, 1, out);
        if (root.kind == PlayNode::Kind::Try) {
            out += std::string("    ") + words_.but + "\n";
            for (const PlayNode& r : root.children)
                if (r.kind == PlayNode::Kind::Refutation) {
                    Position refuted;
                    out += move_line(after, r, 1, refuted) + " !\n";
                    // Reflex play: the goal moves the attacker must not make there.
                    for (const PlayNode& o : r.children) {
                        Position obliged;
                        if (o.kind == PlayNode::Kind::Obliged) out += move_line(refuted, o, 2, obliged) + " ?!?\n";
                    }
                }
        }
        return out;
    }

  private:
    Goal goal_;
    Language lang_;
    BattleWords words_;
};

}  // namespace

std::string battle_move_number(int h) { return std::to_string(h / 2 + 1) + (h % 2 == 0 ? "." : "..."); }

std::string format_battle_block(const Position& pos, const PlayNode& root, Goal goal, Language lang) {
    return BattleWriter(goal, lang).block(pos, root);
}

std::string format_battle_obliged(const Position& pos, const std::vector<PlayNode>& obliged, Goal goal, Language lang) {
    const BattleWriter writer(goal, lang);
    std::string out = "\n";
    for (const PlayNode& n : obliged) {
        Position after;
        out += writer.move_line(pos, n, 0, after) + " ?!?\n";
    }
    return out;
}

}  // namespace rebirth
