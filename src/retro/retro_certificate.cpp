#include "rebirth/retro_certificate.h"

#include <cctype>
#include <sstream>

#include "rebirth/legality_proof.h"
#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/position.h"
#include "rebirth/proof_builder.h"
#include "rebirth/retro.h"
#include "rebirth/rules.h"
#include "rebirth/solve.h"

namespace rebirth {

namespace {

// The conditions without a Circe Parrain LastCapture (a condition of its own, or words of the
// Circe condition): the game array has no unit waiting; a diagram's waiting unit is its own
// (Setup::parrain_piece, take_last_capture).
std::vector<Condition> without_last_capture(std::vector<Condition> conditions) {
    std::erase_if(conditions, [](const Condition& c) { return c.name == "LastCapture"; });
    for (Condition& c : conditions)
        for (size_t i = 0; i < c.args.size(); ++i)
            if (c.args[i] == "LastCapture") {
                c.args.erase(c.args.begin() + long(i), c.args.begin() + long(std::min(c.args.size(), i + 3)));
                break;
            }
    return conditions;
}

// Whether a game's end is `position` under `conditions`: the same units, side to move and
// (Parrain) unit waiting: the position's own, else the conditions' LastCapture.
bool ends_in(const Setup& end, const Setup& position, const std::vector<Condition>& conditions) {
    Setup want = position;
    if (want.parrain_square == SQ_NONE) {
        RuleSet rules = resolve_rules(conditions, "<certificate>");
        take_last_capture(want, rules);
    }
    return same_units(end.board, want.board) && end.side_to_move == want.side_to_move && same_waiting(end, want);
}

// The position `seq` leads back to from `position` (retract, one retraction after the other).
Setup earliest(const Setup& position, const std::vector<UnMove>& seq) {
    Setup s = position;
    for (const UnMove& u : seq) s = retract(s, u);
    return s;
}

// Plays m in pos when it is among the legal moves there (rule choices included).
bool play_legal(Position& pos, const Move& m) {
    MoveList list;
    generate_legal(pos, list);
    for (const Move& x : list)
        if (x == m) {
            UndoInfo u;
            pos.do_move(x, u);
            return true;
        }
    return false;
}

// The game array with White to move under `conditions`, beside the rule set its position
// points at.
struct GameArray {
    explicit GameArray(const std::vector<Condition>& conditions)
        : rules(resolve_rules(without_last_capture(conditions), "<certificate>")) {
        SetupRules setup_rules;
        setup_rules.rules = rules.orthodox() ? nullptr : &rules;
        pos.set(parse_fen(kGameArrayFen), setup_rules);
    }
    GameArray(const GameArray&) = delete;
    GameArray& operator=(const GameArray&) = delete;
    const RuleSet rules;
    Position pos;
};

// In orthodox chess, a game of any length to `start` as `rebirth legal` finds it
// (judge_legality: the constructive search of proof_builder.h to `start`, or to the position
// its few last moves or a promotion taken back lead to, followed by them; on `threads`, within
// `seconds`, 10 when 0), then the sequence's moves: the certificate when it replays to
// `position`.
std::optional<RetroCertificate> constructed_certificate(const Setup& position, const Setup& start,
                                                        RetroCertificate cert, const std::vector<Condition>& conditions,
                                                        double seconds, int threads) {
    if (!conditions.empty()) return std::nullopt;
    BuildLimits limits;
    limits.seconds = seconds > 0 ? seconds : 10;
    limits.threads = threads;
    LegalityProof proof = judge_legality(start, 0, limits);
    if (proof.verdict != LegalityProof::Verdict::Legal) return std::nullopt;
    cert.game = std::move(proof.game);
    if (verify_certificate(position, cert, conditions)) return cert;
    return std::nullopt;
}

}  // namespace

std::optional<Setup> replay_game(const std::vector<Move>& moves, const std::vector<Condition>& conditions) {
    GameArray array(conditions);
    for (const Move& m : moves)
        if (!play_legal(array.pos, m)) return std::nullopt;
    return array.pos.to_setup();
}

bool verify_certificate(const Setup& position, const RetroCertificate& cert, const std::vector<Condition>& conditions) {
    std::vector<Move> moves = cert.game;
    moves.insert(moves.end(), cert.sequence.begin(), cert.sequence.end());
    const std::optional<Setup> end = replay_game(moves, conditions);
    return end && ends_in(*end, position, conditions);
}

std::optional<RetroCertificate> find_certificate(const Setup& position, const std::vector<UnMove>& seq,
                                                 const std::vector<Condition>& conditions, int max_plies,
                                                 double seconds, int threads, int max_games, bool any_length) {
    // The constructive search's game, when asked for.
    const auto constructed = [&](const Setup& start, RetroCertificate cert) -> std::optional<RetroCertificate> {
        if (!any_length) return std::nullopt;
        return constructed_certificate(position, start, std::move(cert), conditions, seconds, threads);
    };
    const Setup start = earliest(position, seq);
    // The sequence forward, the first played first.
    RetroCertificate cert;
    for (auto it = seq.rbegin(); it != seq.rend(); ++it) cert.sequence.push_back(it->move);
    // Games of the parity that leaves the right side to move: White moves first.
    const int parity = start.side_to_move == WHITE ? 0 : 1;
    const int plies = max_plies - ((max_plies - parity) % 2 + 2) % 2;
    if (plies < parity) return constructed(start, std::move(cert));
    // The game array itself: the empty game.
    if (start.side_to_move == WHITE && same_units(start.board, parse_fen(kGameArrayFen).board) &&
        verify_certificate(position, cert, conditions))
        return cert;
    if (plies == 0) return constructed(start, std::move(cert));
    Problem p;
    p.where = {"<retro certificate>", 0};
    p.stipulation.play = Stipulation::Play::ProofGame;
    p.stipulation.goal = "dia";
    p.stipulation.half_moves = plies;
    p.stipulation.moves = plies / 2.0;
    p.stipulation.text = "dia" + std::to_string(plies / 2) + (plies % 2 ? ".5" : "");
    p.conditions = without_last_capture(conditions);
    p.setup = start;
    p.setup.side_to_move = WHITE;
    p.setup.castling = 0;
    p.setup.ep_square = SQ_NONE;
    p.options.max_solutions = max_games;
    SolveLimits limits;
    limits.max_seconds = seconds;
    SolveReport report;
    try {
        report = solve_problem_report(p, threads, limits);
    } catch (const std::exception&) {
        return constructed(start, std::move(cert));
    }
    for (const PlayLine& g : report.proof_games) {
        if (g.first != WHITE) continue;
        cert.game = g.moves;
        if (verify_certificate(position, cert, conditions)) return cert;
    }
    return constructed(start, std::move(cert));
}

std::string certificate_text(const RetroCertificate& cert, const std::vector<Condition>& conditions) {
    GameArray array(conditions);
    Position& pos = array.pos;
    std::string out;
    int ply = 0;
    for (const std::vector<Move>* moves : {&cert.game, &cert.sequence}) {
        if (moves == &cert.sequence) out += out.empty() ? "|" : " |";
        for (const Move& m : *moves) {
            if (!out.empty()) out += ' ';
            if (ply % 2 == 0) out += std::to_string(ply / 2 + 1) + ".";
            out += move_to_popeye(pos, m);
            if (!play_legal(pos, m)) return out + " (illegal)";
            ++ply;
        }
    }
    return out;
}

std::string check_certificate_text(const Setup& position, const std::string& text,
                                   const std::vector<Condition>& conditions, int sequence_length,
                                   std::vector<Move>* played_moves) {
    if (played_moves) played_moves->clear();
    GameArray array(conditions);
    Position& pos = array.pos;
    std::istringstream in(text);
    int bars = 0, after_bar = 0, ply = 0;
    for (std::string token; in >> token;) {
        if (token == "|") {
            ++bars;
            continue;
        }
        // "1.e2-e4": the move number goes.
        size_t i = 0;
        while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) ++i;
        if (i > 0 && i < token.size() && token[i] == '.') token = token.substr(i + 1);
        if (token.empty()) continue;
        // An en passant capture is written with " ep." after it (certificate_text): the next
        // word, taken when it is that.
        in.clear();
        const std::streampos after = in.tellg();
        std::string next;
        const bool ep_mark = (in >> next) && next == "ep.";
        in.clear();
        in.seekg(after);
        MoveList list;
        generate_legal(pos, list);
        bool played = false;
        for (const Move& m : list) {
            const std::string written = move_to_popeye(pos, m);
            const bool with_mark = ep_mark && written == token + " ep.";
            if (written == token || with_mark) {
                if (with_mark) in >> next;
                UndoInfo u;
                pos.do_move(m, u);
                played = true;
                if (played_moves) played_moves->push_back(m);
                break;
            }
        }
        if (!played) return "half-move " + std::to_string(ply + 1) + " '" + token + "' is no legal move there";
        ++ply;
        if (bars == 1) ++after_bar;
    }
    if (bars != 1) return "one '|' between the game and the sequence expected, found " + std::to_string(bars);
    if (after_bar != sequence_length)
        return "the sequence has " + std::to_string(after_bar) + " moves, " + std::to_string(sequence_length) +
               " expected";
    const Setup end = pos.to_setup();
    if (!ends_in(end, position, conditions)) return "the game ends in " + to_fen(end) + ", not in the diagram";
    return "";
}

}  // namespace rebirth
