#include "rebirth/retro_problem.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/parallel.h"
#include "rebirth/error.h"
#include "rebirth/notation.h"
#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/retractor.h"
#include "rebirth/unmove.h"
#include "rebirth/walk.h"

namespace rebirth {

namespace {

// One sequence as retro_text writes it: "  " before each retraction in janko notation, the
// type after the move when one single move is asked.
std::string sequence_line(const Setup& position, const std::vector<UnMove>& seq, int n, const RuleSet* rules) {
    std::string line;
    Setup p = position;
    for (const UnMove& u : seq) {
        line += "  " + janko_notation(p, u, rules);
        if (n == 1) line += "  (" + last_move_type(p, u) + ")";
        p = retract(p, u);
    }
    return line;
}

// One side's part of retro_text: its count line, then its sequences one a line.
std::string side_text(Color moved_last, int n, const std::vector<std::string>& lines) {
    const size_t count = lines.size();
    std::string out = std::string(moved_last == WHITE ? "White" : "Black") + " moved last: " + std::to_string(count);
    if (n == 1)
        out += count == 1 ? " possible last move\n" : " possible last moves\n";
    else
        out +=
            (count == 1 ? " possible sequence of " : " possible sequences of ") + std::to_string(n) + " single moves\n";
    for (const std::string& line : lines) out += line + "\n";
    return out;
}

std::string verdict_of(size_t count) { return count == 0 ? "none" : count == 1 ? "unique" : "unresolved"; }

// The twins' verdicts combined: "none" when one has none, else "unresolved" when one has
// several, else "unique".
void combine(std::string& verdict, const std::string& v) {
    if (v == "none") verdict = "none";
    if (v == "unresolved" && verdict != "none") verdict = "unresolved";
    if (v == "multiple" && verdict == "unique") verdict = "multiple";
}

// A twin of a retro problem ready to analyze.
struct RetroTwin {
    Problem tw;
    std::string line;
    RuleSet rules;
    bool retro = false;
    std::string message;
    int n = 0;
    int depth = 3;
    bool retractor = false;  // a defensive retractor (`spec`), not last moves
    RetractorSpec spec;
    std::vector<Color> sides;
    Setup diagram;
    const RuleSet* r() const { return rules.orthodox() ? nullptr : &rules; }
    Setup position(Color moved_last) const {
        Setup s = diagram;
        s.side_to_move = ~moved_last;
        return s;
    }
};

size_t twin_count(const Problem& p) {
    const bool zero = !p.twins.empty() && p.twins.front().zero_position;
    return p.twins.empty() ? 1 : zero ? p.twins.size() : p.twins.size() + 1;
}

// Twin i of p (0 = a), or the problem itself without twins), its rules checked.
RetroTwin load_twin(const Problem& p, size_t i) {
    const bool zero = !p.twins.empty() && p.twins.front().zero_position;
    RetroTwin t;
    t.tw = apply_twin(p, zero ? i + 1 : i);
    if (!p.twins.empty()) t.line = format_twin_line(p, i);
    const Stipulation::Play kind = p.stipulation.play;
    if (t.tw.stipulation.play != kind ||
        (kind != Stipulation::Play::LastMoves && kind != Stipulation::Play::Retractor)) {
        t.message = "rebirth: " + t.tw.where.file + ":" + std::to_string(t.tw.where.line) + ": stipulation " +
                    t.tw.stipulation.text +
                    " in a retro problem: a twin may change the number of moves, not the kind of play";
        return t;
    }
    t.retro = true;
    // Un-moves exist for the orthodox walks without attributes only.
    for (int sq = 0; sq < SQUARE_NB; ++sq) {
        const Piece q = t.tw.setup.board[sq];
        if (q.empty() || (q.walk <= PAWN && (q.flags & (PF_KAMIKAZE | PF_ROYAL)) == 0)) continue;
        throw InputError(t.tw.where.file, t.tw.where.line,
                         std::string(q.color == WHITE ? "w" : "b") + std::string(walk_code(q.walk, p.language)) +
                             square_name(Square(sq)),
                         "retro analysis handles units of the orthodox walks without attributes only:");
    }
    t.rules = resolve_rules(t.tw.conditions, t.tw.where.file, t.tw.condition_line);
    if (!t.rules.orthodox() && !unmoves_supported(&t.rules))
        throw InputError(t.tw.where.file, t.tw.condition_line, t.rules.describe(), retro_unsupported(t.rules));
    t.n = t.tw.stipulation.half_moves;
    t.depth = t.tw.options.retro_depth.value_or(3);
    if (kind == Stipulation::Play::Retractor) {
        t.retractor = true;
        t.spec.retractions = t.n;
        const std::string& goal = t.tw.stipulation.goal;
        t.spec.aim = goal == "s#1"  ? RetractorAim::SelfMate
                     : goal == "=1" ? RetractorAim::Stalemate
                                    : RetractorAim::Mate;
        const Options& o = t.tw.options;
        t.spec.type = o.hoeg      ? RetractorType::Hoeg
                      : o.klan    ? RetractorType::Klan
                      : o.pacific ? RetractorType::Pacific
                                  : RetractorType::Proca;
        t.spec.forward_defence = !t.tw.options.no_forward_defence;
        t.spec.depth = t.depth;
    }
    if (!t.tw.options.black_to_play) t.sides.push_back(BLACK);
    if (!t.tw.options.white_to_play) t.sides.insert(t.sides.begin(), WHITE);
    if (t.retractor) t.sides = {WHITE};  // White moved last
    t.diagram = t.tw.setup;
    t.diagram.castling = 0;                 // a diagram asserts no castling right
    take_last_capture(t.diagram, t.rules);  // Parrain: the unit the last move took waits in the diagram
    return t;
}

// The twin's text before its answer: its twin line (with twins).
std::string twin_head(const std::string& line) {
    std::string out;
    if (!line.empty()) out.append("\n").append(line).append("\n");
    return out;
}

}  // namespace

std::string retro_text(const LastMovesAnswer& answer, int n, const RuleSet* rules) {
    std::string out;
    for (const LastMovesAnswer::Side& side : answer.sides) {
        std::vector<std::string> lines;
        for (const std::vector<UnMove>& seq : side.sequences)
            lines.push_back(sequence_line(side.position, seq, n, rules));
        out += side_text(side.moved_last, n, lines);
    }
    return out + "verdict: " + answer.verdict() + "\n";
}

std::vector<std::vector<std::string>> retro_solutions(const LastMovesAnswer& answer, const RuleSet* rules) {
    std::vector<std::vector<std::string>> solutions;
    for (const LastMovesAnswer::Side& side : answer.sides)
        for (const std::vector<UnMove>& seq : side.sequences) {
            std::vector<std::string> texts;
            Setup p = side.position;
            for (const UnMove& u : seq) {
                texts.push_back(janko_notation(p, u, rules));
                p = retract(p, u);
            }
            solutions.push_back(std::move(texts));
        }
    return solutions;
}

std::string retro_unsupported(const RuleSet& rules) {
    return "retro analysis under " + rules.describe() +
           " is not supported yet (supported: orthodox, Circe with Relaxed, Strict or Assassin occupied squares, "
           "Frischauf with Relaxed or Strict, Parrain and ContraParrain (Relaxed), AntiCirce, Circe with AntiCirce, "
           "MarsCirce, AntiMarsCirce, Turncoats with Circe or AntiCirce alone (Relaxed or Strict), April with Circe or "
           "AntiCirce alone; "
           "not yet Clone, Chameleon, Take&Make, Super, Cage or Diagram squares)";
}

RetroProblemReport solve_retro_problem(const Problem& p, int threads, double max_seconds) {
    RetroProblemReport report;
    std::string verdict = "unique";
    for (size_t i = 0; i < twin_count(p); ++i) {
        const RetroTwin t = load_twin(p, i);
        report.text += twin_head(t.line);
        if (!t.retro) {
            report.text.append("\n").append(t.message).append("\n");
            report.supported = false;
            continue;
        }
        if (t.retractor) {
            RetractorSpec spec = t.spec;
            spec.max_seconds = max_seconds;
            const RetractorAnswer answer = solve_retractor(t.diagram, spec, t.r(), threads);
            report.text.append("\n").append(retractor_text(answer));
            combine(verdict, answer.verdict());
            for (const RetractorStep& key : answer.keys) report.solutions.push_back({key.text});
            report.side = "w";
            continue;
        }
        std::optional<Color> mover;
        if (t.sides.size() == 1) mover = t.sides.front();
        const LastMovesAnswer answer = last_moves(t.diagram, t.n, mover, t.depth, t.r(), threads);
        report.text.append("\n").append(retro_text(answer, t.n, t.r()));
        combine(verdict, answer.verdict());
        for (auto& seq : retro_solutions(answer, t.r())) report.solutions.push_back(std::move(seq));
        report.side = mover ? std::string(*mover == WHITE ? "w" : "b") : std::string("both");
    }
    report.text += "\n\n";
    if (report.supported) report.verdict = verdict;
    return report;
}

namespace {

// The prefixes the items of a side are cut from: the retraction prefixes of length k, or for
// one move asked every retraction generate_unmoves gives, one a prefix.
std::vector<std::vector<UnMove>> side_prefixes(const RetroTwin& t, const Setup& s, int k) {
    if (t.retractor) return retractor_first_choices(s, t.spec, t.r());
    if (t.n > 1) return retraction_prefixes(s, k, t.r());
    std::vector<UnMove> un;
    generate_unmoves(s, un, t.r());
    std::vector<std::vector<UnMove>> out;
    for (const UnMove& u : un) out.push_back({u});
    return out;
}

}  // namespace

RetroPlan plan_retro(const Problem& p, int target, int max_prefixes, int k, int chunk) {
    std::vector<RetroTwin> twins;
    int smallest_n = 64;
    for (size_t i = 0; i < twin_count(p); ++i) {
        twins.push_back(load_twin(p, i));
        if (twins.back().retro) smallest_n = std::min(smallest_n, twins.back().n);
    }
    auto make = [&](int length) {
        RetroPlan plan;
        plan.k = length;
        for (const RetroTwin& t : twins) {
            RetroPlan::Twin pt;
            pt.line = t.line;
            pt.retro = t.retro;
            pt.message = t.message;
            pt.n = t.n;
            pt.retractor = t.retractor;
            for (Color c : t.sides)
                pt.sides.push_back({c, static_cast<int>(side_prefixes(t, t.position(c), length).size()), 0});
            plan.twins.push_back(std::move(pt));
        }
        return plan;
    };
    auto total = [](const RetroPlan& plan) {
        long sum = 0;
        for (const RetroPlan::Twin& t : plan.twins)
            for (const RetroPlan::Side& s : t.sides) sum += s.prefixes;
        return sum;
    };
    RetroPlan plan;
    if (k > 0) {
        if (k > smallest_n) throw std::invalid_argument("retro plan with prefixes longer than the moves asked");
        plan = make(k);
    } else {
        plan = make(1);
        while (plan.k < smallest_n && total(plan) < target) {
            RetroPlan longer = make(plan.k + 1);
            if (total(longer) > max_prefixes) break;
            plan = std::move(longer);
        }
    }
    plan.chunk = chunk > 0 ? chunk : static_cast<int>(std::max(1L, total(plan) / std::max(1, target)));
    for (RetroPlan::Twin& t : plan.twins)
        for (RetroPlan::Side& s : t.sides) s.items = (s.prefixes + plan.chunk - 1) / plan.chunk;
    return plan;
}

namespace {

// Twin `twin` of p and the position of side `side` of it, checked against a plan with prefix
// length k.
std::pair<RetroTwin, Setup> twin_side(const Problem& p, int k, int twin, int side) {
    if (twin < 0 || static_cast<size_t>(twin) >= twin_count(p)) throw std::invalid_argument("no such retro twin");
    RetroTwin t = load_twin(p, static_cast<size_t>(twin));
    if (!t.retro || side < 0 || static_cast<size_t>(side) >= t.sides.size() || k < 1 || k > t.n)
        throw std::invalid_argument("no such retro item");
    const Setup s = t.position(t.sides[static_cast<size_t>(side)]);
    return {std::move(t), s};
}

}  // namespace

std::vector<std::vector<UnMove>> retro_side_prefixes(const Problem& p, int k, int twin, int side) {
    const auto twin_and_position = twin_side(p, k, twin, side);
    const RetroTwin& t = twin_and_position.first;  // named, not bound: lambdas below use them
    const Setup& s = twin_and_position.second;
    return side_prefixes(t, s, k);
}

RetroFragment retro_item_fragment(const Problem& p, int k, int chunk, int twin, int side, int item, int threads,
                                  const std::vector<std::vector<UnMove>>* given, double max_seconds) {
    const auto twin_and_position = twin_side(p, k, twin, side);
    const RetroTwin& t = twin_and_position.first;  // named, not bound: lambdas below use them
    const Setup& s = twin_and_position.second;
    if (chunk < 1 || item < 0) throw std::invalid_argument("no such retro item");
    std::vector<std::vector<UnMove>> own;
    if (!given) own = side_prefixes(t, s, k);
    const std::vector<std::vector<UnMove>>& prefixes = given ? *given : own;
    const size_t begin = static_cast<size_t>(item) * static_cast<size_t>(chunk);
    if (begin >= prefixes.size()) throw std::invalid_argument("no such retro item");
    const size_t end = std::min(prefixes.size(), begin + static_cast<size_t>(chunk));
    RetroFragment out;
    if (t.retractor) {
        const std::vector<std::vector<UnMove>> part(prefixes.begin() + long(begin), prefixes.begin() + long(end));
        RetractorSpec spec = t.spec;
        spec.max_seconds = max_seconds;
        RetractorAnswer answer = solve_retractor_choices(s, spec, t.r(), part, threads);
        out.key_choices = answer.key_choices;
        out.unresolved_choices = answer.unresolved_choices;
        out.keys = std::move(answer.keys);
        out.unresolved = std::move(answer.unresolved);
        return out;
    }
    if (t.n == 1) {
        // One move asked: possible_last_moves' test (no history filter).
        std::vector<char> kept(end - begin, 0);
        run_in_arena(threads, [&] {
            for_each_index(threads, end - begin, [&](size_t i) {
                kept[i] = !last_move_refuted(s, prefixes[begin + i].front(), t.depth, t.r());
            });
        });
        for (size_t i = begin; i < end; ++i)
            if (kept[i - begin]) out.sequences.push_back(prefixes[i]);
        return out;
    }
    for (size_t i = begin; i < end; ++i)
        for (std::vector<UnMove>& seq : last_moves_after(s, prefixes[i], t.n, t.depth, t.r(), threads))
            out.sequences.push_back(std::move(seq));
    return out;
}

namespace {

// The texts of one item's fragment of side `side` of twin `t`: a retractor's keys' and
// unsettled choices' texts (always checked), or the sequences' lines, checked (see
// assemble_retro) when `check`, written when `render`.
struct FragmentTexts {
    std::string keys, unresolved;
    std::vector<std::string> lines;
};

FragmentTexts fragment_texts(const RetroTwin& t, size_t side, const RetroFragment& f, bool check = true,
                             bool render = true) {
    FragmentTexts out;
    if (side >= t.sides.size()) throw std::invalid_argument("retro items of another plan");
    const Setup s = t.position(t.sides[side]);
    if (t.retractor) {
        if (!f.sequences.empty()) throw std::invalid_argument("last-move sequences in a retractor's item");
        if (f.key_choices < 0 || f.unresolved_choices < 0 || size_t(f.key_choices) > f.keys.size() ||
            size_t(f.unresolved_choices) > f.unresolved.size() || (f.key_choices == 0) != f.keys.empty() ||
            (f.unresolved_choices == 0) != f.unresolved.empty())
            throw std::invalid_argument("a retractor's item whose counts do not fit its first retractions");
        for (const RetractorStep& key : f.keys) {
            RetractorStep step = key;
            render_retractor_step(t.diagram, step, t.spec, t.r());
            out.keys += retractor_key_text(step);
        }
        for (const RetractorStep& u : f.unresolved) {
            if (!u.next.empty()) throw std::invalid_argument("an unsettled first retraction with a tree");
            RetractorStep step = u;
            render_retractor_step(t.diagram, step, t.spec, t.r());
            out.unresolved += retractor_unresolved_text(step);
        }
        return out;
    }
    if (f.key_choices != 0 || f.unresolved_choices != 0 || !f.keys.empty() || !f.unresolved.empty())
        throw std::invalid_argument("retractor's choices in a last-move item");
    // The chain of the sequence before: its retractions, the positions they lead back to
    // (positions[0] = s) and those positions' un-moves as far as worked out (sequences come in
    // retraction order, so neighbours share their prefixes).
    std::vector<UnMove> path;
    std::vector<Setup> positions{s};
    std::vector<std::vector<UnMove>> unmoves;
    for (const std::vector<UnMove>& seq : f.sequences) {
        if (seq.size() != size_t(t.n)) throw std::invalid_argument("a sequence of another length than the twin's");
        if (render) out.lines.push_back(sequence_line(s, seq, t.n, t.r()));
        if (!check) continue;
        size_t common = 0;
        while (common < path.size() && path[common] == seq[common]) ++common;
        path.resize(common);
        positions.resize(common + 1);
        unmoves.resize(std::min(unmoves.size(), common + 1));
        for (size_t i = 0; i < seq.size(); ++i) {
            if (unmoves.size() <= i) {
                unmoves.emplace_back();
                generate_unmoves(positions[i], unmoves.back(), t.r());
            }
            if (std::find(unmoves[i].begin(), unmoves[i].end(), seq[i]) == unmoves[i].end())
                throw std::invalid_argument("a retraction that is not one of the position's un-moves");
            if (i >= path.size()) {
                path.push_back(seq[i]);
                positions.push_back(retract_keeping_rights(positions[i], seq[i]));
            }
        }
    }
    return out;
}

// Prefixes an item of whole_retro_plan may hold: far more than any side has (at most one
// retraction each), and small enough to add to a count of them without overflow.
constexpr int kWholeChunk = 1 << 24;

}  // namespace

RetroPlan whole_retro_plan(const Problem& p) { return plan_retro(p, 1, kWholeChunk, 1, kWholeChunk); }

std::vector<std::vector<std::vector<RetroFragment>>> solve_whole_retro(const Problem& p, int threads,
                                                                       double max_seconds) {
    const RetroPlan plan = whole_retro_plan(p);
    std::vector<std::vector<std::vector<RetroFragment>>> out(plan.twins.size());
    for (size_t t = 0; t < plan.twins.size(); ++t)
        for (size_t s = 0; s < plan.twins[t].sides.size(); ++s) {
            out[t].emplace_back();
            for (int i = 0; i < plan.twins[t].sides[s].items; ++i)
                out[t][s].push_back(
                    retro_item_fragment(p, plan.k, plan.chunk, int(t), int(s), i, threads, nullptr, max_seconds));
        }
    return out;
}

void check_retro_fragment(const Problem& p, const RetroPlan& plan, int twin, int side, const RetroFragment& fragment) {
    if (twin < 0 || size_t(twin) >= plan.twins.size() || size_t(twin) >= twin_count(p) || side < 0 ||
        size_t(side) >= plan.twins[size_t(twin)].sides.size())
        throw std::invalid_argument("retro items of another plan");
    (void)fragment_texts(load_twin(p, size_t(twin)), size_t(side), fragment, true, false);
}

RetroAssembly assemble_retro(const Problem& p, const RetroPlan& plan,
                             const std::vector<std::vector<std::vector<RetroFragment>>>& fragments, bool checked) {
    RetroAssembly out;
    std::string verdict = "unique";
    if (fragments.size() != plan.twins.size() || plan.twins.size() != twin_count(p))
        throw std::invalid_argument("retro items of another plan");
    for (size_t t = 0; t < plan.twins.size(); ++t) {
        const RetroPlan::Twin& twin = plan.twins[t];
        out.text += twin_head(twin.line);
        if (!twin.retro) {
            out.text.append("\n").append(twin.message).append("\n");
            out.supported = false;
            continue;
        }
        const RetroTwin rt = load_twin(p, t);
        if (!rt.retro || rt.retractor != twin.retractor || rt.sides.size() != twin.sides.size())
            throw std::invalid_argument("retro items of another plan");
        if (fragments[t].size() != twin.sides.size()) throw std::invalid_argument("retro items of another plan");
        out.text += "\n";
        for (size_t s = 0; s < twin.sides.size(); ++s)
            if (fragments[t][s].size() != static_cast<size_t>(twin.sides[s].items))
                throw std::invalid_argument("retro items of another plan");
        if (twin.retractor) {
            // retractor_text from the items' counts and trees.
            int keys = 0, unresolved = 0;
            std::string key_text, unresolved_text;
            for (const RetroFragment& item : fragments[t].front()) {
                const FragmentTexts texts = fragment_texts(rt, 0, item, !checked);
                keys += item.key_choices;
                unresolved += item.unresolved_choices;
                key_text += texts.keys;
                unresolved_text += texts.unresolved;
                out.count += int(item.keys.size());  // as solve_retro_problem's solutions: one per key
            }
            const std::string v = retractor_verdict(keys, unresolved);
            out.text += key_text + unresolved_text + "verdict: " + v + "\n";
            combine(verdict, v);
            continue;
        }
        size_t count = 0;
        for (size_t s = 0; s < twin.sides.size(); ++s) {
            std::vector<std::string> side_lines;
            // One move asked: the last moves the items leave get possible_last_moves' second
            // look here, where they are all known (each item saw only its own); it decides
            // itself whether they are few enough for its wider searches.
            // Both sides asked (either may have moved last): the other side's count too.
            std::vector<RetroFragment> narrowed;
            size_t left = 0, all_sides = 0;
            for (const RetroFragment& item : fragments[t][s]) left += item.sequences.size();
            for (const std::vector<RetroFragment>& side : fragments[t])
                for (const RetroFragment& item : side) all_sides += item.sequences.size();
            if (twin.n == 1 && left >= 1 && all_sides >= 2) {
                std::vector<std::vector<UnMove>> all;
                for (const RetroFragment& item : fragments[t][s])
                    all.insert(all.end(), item.sequences.begin(), item.sequences.end());
                const size_t before = all.size();
                narrow_few_last_moves(rt.position(rt.sides[s]), all, rt.r(), 0, all_sides - left);
                if (all.size() != before) {
                    narrowed = fragments[t][s];
                    for (RetroFragment& item : narrowed)
                        std::erase_if(item.sequences, [&](const std::vector<UnMove>& seq) {
                            return std::find(all.begin(), all.end(), seq) == all.end();
                        });
                }
            }
            for (const RetroFragment& item : narrowed.empty() ? fragments[t][s] : narrowed) {
                FragmentTexts texts = fragment_texts(rt, s, item, !checked);
                side_lines.insert(side_lines.end(), texts.lines.begin(), texts.lines.end());
            }
            count += side_lines.size();
            out.text += side_text(twin.sides[s].moved_last, twin.n, side_lines);
        }
        out.text += "verdict: " + verdict_of(count) + "\n";
        combine(verdict, verdict_of(count));
        out.count += static_cast<int>(count);
    }
    out.text += "\n\n";
    if (out.supported) out.verdict = verdict;
    return out;
}

}  // namespace rebirth
