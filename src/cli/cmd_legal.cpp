#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli.h"
#include "rebirth/bitboard.h"
#include "rebirth/error.h"
#include "rebirth/legality_proof.h"
#include "rebirth/retro_certificate.h"
#include "rebirth/setup.h"

namespace rebirth::cli {

Bitboard parse_marked_squares(const std::string& text, const std::string& source,
                              const std::array<Piece, SQUARE_NB>& board) {
    Bitboard squares = 0;
    std::string word;
    const auto take = [&] {
        if (word.empty()) return;
        const Square sq = parse_square(word);
        if (sq == SQ_NONE) throw InputError(source, 0, word, "not a square (a1 to h8)");
        if (board[sq].empty()) throw InputError(source, 0, word, "no unit stands there to mark");
        squares |= square_bb(sq);
        word.clear();
    };
    for (const char ch : text) {
        if (ch == ',' || ch == ' ' || ch == '\t')
            take();
        else
            word += ch;
    }
    take();
    return squares;
}

// `rebirth legal --fen FEN [--frozen SQUARES] [--promoted SQUARES]`: whether an orthodox
// diagram is legal, with its proof (a game from the game array, replayable by `rebirth verify`
// from the JSON line) or the reason it is illegal, or "unresolved". The marks are claims about
// the diagram's units (legality.h): the verdict holds with them, and the game keeps them. Exit
// 0 for every verdict.
int run_legal(const LegalArgs& args) {
    const Setup diagram = parse_fen(args.fen, "--fen");
    LegalityMarks marks;
    marks.frozen = parse_marked_squares(args.frozen, "--frozen", diagram.board);
    marks.promoted = parse_marked_squares(args.promoted, "--promoted", diagram.board);
    BuildLimits limits;
    limits.seconds = args.seconds;
    limits.threads = args.threads;
    const LegalityProof proof = judge_legality(diagram, args.depth, limits, marks);
    RetroCertificate cert;
    cert.game = proof.game;
    // The certificate without retractions: the game, then "|" and nothing.
    const std::string game = proof.verdict == LegalityProof::Verdict::Legal ? certificate_text(cert, {}) : "";
    if (args.json) {
        nlohmann::json j;
        j["id"] = to_fen(diagram);
        j["kind"] = "legality";
        // The marks, which `rebirth verify` checks the game against.
        for (const auto& [key, squares] : {std::pair{"frozen", marks.frozen}, std::pair{"promoted", marks.promoted}}) {
            if (!squares) continue;
            std::string list;
            for (Bitboard b = squares; b;) list += (list.empty() ? "" : ",") + square_name(pop_lsb(b));
            j[key] = list;
        }
        j["verdict"] = proof.verdict_name();
        if (!proof.reason.empty()) j["reason"] = proof.reason;
        j["solutions"] = nlohmann::json::array();
        j["certificates"] = nlohmann::json::array();
        if (proof.verdict == LegalityProof::Verdict::Legal) {
            j["plies"] = proof.game.size();
            j["solutions"].push_back(nlohmann::json::array());
            j["certificates"].push_back(game);
        }
        std::cout << j.dump() << "\n";
        return kExitOk;
    }
    std::cout << proof.verdict_name();
    if (proof.verdict == LegalityProof::Verdict::Legal)
        std::cout << ": a game of " << proof.game.size() << " half-moves reaches it\n"
                  << (proof.game.empty() ? std::string("(the game array)") : game.substr(0, game.rfind(" |"))) << "\n";
    else
        std::cout << ": " << proof.reason << "\n";
    return kExitOk;
}

}  // namespace rebirth::cli
