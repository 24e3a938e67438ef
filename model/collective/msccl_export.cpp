#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "model/collective/msccl_xml.h"
#include "model/collective/schedule_graph.h"

namespace mt {
namespace {

std::string xml_escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

struct StepOut {
  std::string type;
  Buffer src_buf = Buffer::kData;
  int src = -1;  // srcoff
  Buffer dst_buf = Buffer::kData;
  int dst = -1;  // dstoff
  int cnt = 1;
  int dep_tb = -1, dep_step = -1;
  bool hasdep = false;
  int op = -1;  // message sent or local step run, for the mtsim_* attributes
};

const char* buffer_name(Buffer b) {
  return b == Buffer::kScratch ? "s" : "i";
}

// The MSCCL executor's limits: MAXCHANNELS, MSCCL_MAX_NUM_THREAD_BLOCKS (108 * 2),
// MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL and MSCCL_MAX_NUM_STEPS of the msccl runtime's
// src/include/msccl.h.
constexpr int kMscclMaxChannels = 32;
constexpr int kMscclMaxTbs = 216;
constexpr int kMscclMaxTbsPerChannel = 32;
constexpr int kMscclMaxSteps = 256;

struct TbOut {
  int send = -1, recv = -1, chan = 0;
  std::vector<StepOut> steps;
};

}  // namespace

std::vector<std::string> msccl_limit_notes(const MscclExportStats& stats) {
  std::vector<std::string> notes;
  auto check = [&](int value, int limit, const std::string& what) {
    if (value > limit)
      notes.push_back(std::to_string(value) + " " + what + " (the MSCCL runtime allows " +
                      std::to_string(limit) + ")");
  };
  check(stats.channels, kMscclMaxChannels, "channels");
  check(stats.max_tbs_per_gpu, kMscclMaxTbs, "thread blocks on one GPU");
  check(stats.max_tbs_per_channel, kMscclMaxTbsPerChannel,
        "thread blocks of one GPU on one channel");
  check(stats.max_steps_per_tb, kMscclMaxSteps, "steps in one thread block");
  return notes;
}

std::string schedule_to_msccl(const Schedule& schedule, MscclExportStats* stats) {
  if (!schedule.chunk_offsets.empty())
    throw ScheduleError(
        "schedule has unequal chunks (chunk_offsets): MSCCL XML has equal chunks only");
  const std::size_t n = schedule.ops.size();
  std::vector<std::vector<int>> deps(n);
  const DepsOf deps_of = [&deps](int m) -> const std::vector<int>& {
    return deps[static_cast<std::size_t>(m)];
  };
  OpChecks references;
  references.fields = false;
  require_valid_ops(schedule, references);
  for (const Op& op : schedule.ops) {
    // A local step waits for its apply_after's send step (MSCCL runs a step once the step it
    // depends on has completed); a receive's wait would hold up its receive-only thread block.
    if (op.apply_after >= 0 && !op.is_local())
      throw ScheduleError("message " + std::to_string(op.id) +
                          " uses receive staging (apply_after): MSCCL XML has no form for it "
                          "that keeps the receives of its thread block free to proceed");
  }
  // Steps a local step waits for besides its receives: its apply_after's send.
  const auto extra_waits = [&schedule](int id) {
    return schedule.ops[static_cast<std::size_t>(id)].apply_after >= 0 ? 1 : 0;
  };
  int lost = 0;
  for (const Op& op : schedule.ops) {
    deps[static_cast<std::size_t>(op.id)] = op.deps.to_vector();
    if (op.port >= 0 || !op.path.empty()) ++lost;
  }

  // Send chains per (node, peer): a send may follow the chain's last one when that one's deps
  // all arrive before this one may issue, so thread-block order adds no wait. The messages that
  // happen before the op being placed are searched once for all the chains it is tried against
  // (the search was repeated per chain: quadratic in a link's messages, 12 s for MultiTree on a
  // 16x16 torus); `ancestors` is 0 before the search, 1 when it finished, -1 past its budget.
  std::vector<int> stamp(n, 0);
  int generation = 0;
  int ancestors = 0;
  const auto ancestors_marked = [&](int op) {
    if (ancestors == 0) {
      ++generation;
      ancestors = mark_ancestors(deps_of, {op}, stamp, generation, kMscclSearchBudget) ? 1 : -1;
    }
    return ancestors > 0;
  };
  auto may_follow = [&](int last, int op) {
    const auto& need = deps[static_cast<std::size_t>(last)];
    const auto& have = deps[static_cast<std::size_t>(op)];
    if (std::all_of(need.begin(), need.end(),
                    [&](int d) { return std::find(have.begin(), have.end(), d) != have.end(); }))
      return true;
    if (!ancestors_marked(op)) return false;
    return std::all_of(need.begin(), need.end(),
                       [&](int d) { return stamp[static_cast<std::size_t>(d)] == generation; });
  };
  // A local step is itself a receive for what follows it in its thread block: it may follow
  // another only when that one happens before it anyway.
  auto may_follow_local = [&](int last, int op) {
    if (!ancestors_marked(op)) return false;
    return stamp[static_cast<std::size_t>(last)] == generation;
  };
  const int nodes = schedule.nodes;
  // chains[node][peer] = list of chains (op ids); local steps under peer == node
  std::vector<std::map<int, std::vector<std::vector<int>>>> chains(static_cast<std::size_t>(nodes));
  for (const Op& op : schedule.ops) {
    auto& list = chains[static_cast<std::size_t>(op.node)][op.peer];
    ancestors = 0;  // not yet searched for this op
    bool placed = false;
    for (auto& chain : list)
      if (op.is_local() ? may_follow_local(chain.back(), op.id) : may_follow(chain.back(), op.id)) {
        chain.push_back(op.id);
        placed = true;
        break;
      }
    if (!placed) list.push_back({op.id});
  }
  // Runs of a chain that one step with cnt > 1 carries: consecutive ids, contiguous slots at both
  // ends, the same kind, buffers, step, flow and dependencies (the import splits them back into
  // the same messages). Each run: (first index in the chain, count).
  // Fused ops must be waited for together: the same ops depend on each (else a step waiting for
  // one chunk would wait for all of the step's).
  std::vector<std::vector<int>> dependents(n);
  for (const Op& op : schedule.ops)
    for (const int d : op.deps) dependents[static_cast<std::size_t>(d)].push_back(op.id);
  const auto runs_of = [&schedule, &dependents](const std::vector<int>& chain) {
    std::vector<std::pair<std::size_t, int>> runs;
    for (std::size_t i = 0; i < chain.size(); ++i) {
      if (!runs.empty()) {
        const Op& a = schedule.ops[static_cast<std::size_t>(chain[i - 1])];
        const Op& b = schedule.ops[static_cast<std::size_t>(chain[i])];
        if (b.id == a.id + 1 && b.chunk == a.chunk + 1 && b.dst_slot() == a.dst_slot() + 1 &&
            std::tie(a.kind, a.src_buf, a.dst_buf, a.step, a.flow, a.deps) ==
                std::tie(b.kind, b.src_buf, b.dst_buf, b.step, b.flow, b.deps) &&
            a.apply_after < 0 && b.apply_after < 0 &&
            dependents[static_cast<std::size_t>(a.id)] ==
                dependents[static_cast<std::size_t>(b.id)]) {
          ++runs.back().second;
          continue;
        }
      }
      runs.emplace_back(i, 1);
    }
    return runs;
  };
  // Every op's run (one step), and per op its dependencies one per run: a step waits for a
  // receive step once, however many of the chunks it carries the op waits for.
  std::vector<int> run_id(n, -1);
  int runs = 0;
  for (const auto& by_peer : chains)
    for (const auto& [peer, list] : by_peer)
      for (const auto& chain : list)
        for (const auto& [first, count] : runs_of(chain)) {
          for (int k = 0; k < count; ++k)
            run_id[static_cast<std::size_t>(chain[first + static_cast<std::size_t>(k)])] = runs;
          ++runs;
        }
  std::vector<int> seen(static_cast<std::size_t>(runs), -1);
  for (std::size_t m = 0; m < n; ++m) {
    std::vector<int> one_per_run;
    for (const int d : deps[m]) {
      int& mark = seen[static_cast<std::size_t>(run_id[static_cast<std::size_t>(d)])];
      if (mark == static_cast<int>(m)) continue;
      mark = static_cast<int>(m);
      one_per_run.push_back(d);
    }
    deps[m] = std::move(one_per_run);
  }
  // Thread blocks: per node, send blocks (peer, chan) then receive blocks (peer, chan).
  std::vector<std::vector<TbOut>> tbs(static_cast<std::size_t>(nodes));
  std::vector<std::pair<int, int>> recv_at(n);  // message -> (tb, step) at its receiver
  std::vector<std::pair<int, int>> send_at(n);  // message -> (tb, step) at its sender
  int nchannels = 1;
  for (int u = 0; u < nodes; ++u)
    for (const auto& [peer, list] : chains[static_cast<std::size_t>(u)]) {
      if (peer != u) nchannels = std::max(nchannels, static_cast<int>(list.size()));
      for (std::size_t c = 0; c < list.size(); ++c) {
        TbOut tb;
        tb.send = peer == u ? -1 : peer;  // a local chain: neither sends nor receives
        tb.chan = peer == u ? 0 : static_cast<int>(c);
        // Where each step of the chain will sit (after a nop per extra wait): a local step's
        // receivers and the local steps staged behind a send point there.
        int at = 0;
        for (const auto& [first, count] : runs_of(list[c])) {
          const int id = list[c][first];
          at += std::max<int>(
              1, static_cast<int>(deps[static_cast<std::size_t>(id)].size()) + extra_waits(id));
          for (int k = 0; k < count; ++k) {
            const auto op = static_cast<std::size_t>(list[c][first + static_cast<std::size_t>(k)]);
            send_at[op] = {static_cast<int>(tbs[static_cast<std::size_t>(u)].size()), at - 1};
            if (peer == u) recv_at[op] = send_at[op];
          }
        }
        tbs[static_cast<std::size_t>(u)].push_back(tb);
      }
    }
  for (int v = 0; v < nodes; ++v)
    for (int u = 0; u < nodes; ++u) {
      const auto it = chains[static_cast<std::size_t>(u)].find(v);
      if (u == v || it == chains[static_cast<std::size_t>(u)].end()) continue;
      for (std::size_t c = 0; c < it->second.size(); ++c) {
        TbOut tb;
        tb.recv = u;
        tb.chan = static_cast<int>(c);
        const int tb_id = static_cast<int>(tbs[static_cast<std::size_t>(v)].size());
        const std::vector<int>& chain = it->second[c];
        for (const auto& [first, count] : runs_of(chain)) {
          const Op& op = schedule.ops[static_cast<std::size_t>(chain[first])];
          StepOut st;
          st.cnt = count;
          st.type = op.kind == OpKind::kReduce ? "rrc" : "r";
          st.dst_buf = op.dst_buf;
          st.dst = op.dst_slot();
          if (op.kind == OpKind::kReduce) {  // adds in place: srcoff is dstoff
            st.src_buf = op.dst_buf;
            st.src = st.dst;
          }
          for (int k = 0; k < count; ++k)
            recv_at[static_cast<std::size_t>(chain[first + static_cast<std::size_t>(k)])] = {
                tb_id, static_cast<int>(tb.steps.size())};
          tb.steps.push_back(st);
        }
        tbs[static_cast<std::size_t>(v)].push_back(tb);
      }
    }
  // Steps some step waits for (a local step's may come later in this loop): marked after it.
  std::vector<std::pair<int, std::pair<int, int>>> signalled;
  for (int u = 0; u < nodes; ++u) {
    std::size_t t = 0;
    for (const auto& [peer, list] : chains[static_cast<std::size_t>(u)])
      for (const auto& chain : list) {
        TbOut& tb = tbs[static_cast<std::size_t>(u)][t++];
        for (const auto& [first, count] : runs_of(chain)) {
          const int id = chain[first];
          const Op& op = schedule.ops[static_cast<std::size_t>(id)];
          const std::string type = !op.is_local() ? "s" : op.kind == OpKind::kReduce ? "re" : "cpy";
          std::vector<std::pair<int, int>> waits;
          for (const int d : deps[static_cast<std::size_t>(id)])
            waits.push_back(recv_at[static_cast<std::size_t>(d)]);
          if (extra_waits(id) > 0)
            waits.push_back(send_at[static_cast<std::size_t>(op.apply_after)]);
          for (std::size_t k = 0; k < waits.size(); ++k) {
            const auto [dt, ds] = waits[k];
            signalled.emplace_back(u, waits[k]);
            StepOut st;
            st.type = k + 1 < waits.size() ? "nop" : type;
            st.cnt = k + 1 < waits.size() ? 0 : 1;
            st.dep_tb = dt;
            st.dep_step = ds;
            tb.steps.push_back(st);
          }
          if (waits.empty()) {
            tb.steps.emplace_back();
            tb.steps.back().type = type;
          }
          StepOut& st = tb.steps.back();
          st.src_buf = op.src_buf;
          st.src = op.chunk;
          st.dst_buf = op.dst_buf;  // a send's: where the peer puts it
          st.dst = op.dst_slot();
          st.cnt = count;
          st.op = id;
        }
      }
  }
  for (const auto& [u, at] : signalled)
    tbs[static_cast<std::size_t>(u)][static_cast<std::size_t>(at.first)]
        .steps[static_cast<std::size_t>(at.second)]
        .hasdep = true;
  // A local block's channel orders nothing: each goes to the channel with the fewest blocks (a
  // new one while there are fewer than the runtime's 32), keeping channels within its limit.
  for (auto& list : tbs) {
    std::vector<int> per_channel(static_cast<std::size_t>(nchannels), 0);
    for (const TbOut& tb : list)
      if (tb.send >= 0 || tb.recv >= 0) ++per_channel[static_cast<std::size_t>(tb.chan)];
    for (TbOut& tb : list) {
      if (tb.send >= 0 || tb.recv >= 0) continue;
      auto least = std::min_element(per_channel.begin(), per_channel.end());
      if (*least >= kMscclMaxTbsPerChannel && nchannels < kMscclMaxChannels) {
        per_channel.push_back(0);
        ++nchannels;
        least = per_channel.end() - 1;
      }
      tb.chan = static_cast<int>(least - per_channel.begin());
      ++*least;
    }
  }
  if (stats != nullptr) {
    *stats = MscclExportStats();
    stats->dropped = lost;
    stats->channels = nchannels;
    for (const auto& list : tbs) {
      stats->max_tbs_per_gpu = std::max(stats->max_tbs_per_gpu, static_cast<int>(list.size()));
      std::map<int, int> per_channel;
      for (const TbOut& tb : list) {
        stats->max_tbs_per_channel = std::max(stats->max_tbs_per_channel, ++per_channel[tb.chan]);
        stats->max_steps_per_tb =
            std::max(stats->max_steps_per_tb, static_cast<int>(tb.steps.size()));
      }
    }
  }
  std::ostringstream x;
  x << "<algo name=\"" << xml_escape(schedule.algorithm.empty() ? "mtsim" : schedule.algorithm)
    << "\" proto=\"Simple\" nchannels=\"" << nchannels << "\" nchunksperloop=\""
    << schedule.num_chunks << "\" ngpus=\"" << nodes
    << "\" coll=\"allreduce\" inplace=\"1\" outofplace=\"0\" minBytes=\"0\" "
    << "maxBytes=\"9223372036854775807\"";  // the MSCCL executor requires all three
  if (!schedule.topology.empty())
    x << " mtsim_topology=\"" << xml_escape(schedule.topology) << "\"";
  x << ">\n";
  for (int u = 0; u < nodes; ++u) {
    x << "  <gpu id=\"" << u << "\" i_chunks=\"" << schedule.num_chunks << "\" o_chunks=\""
      << schedule.num_chunks << "\" s_chunks=\"" << schedule.scratch_chunks << "\">\n";
    const auto& list = tbs[static_cast<std::size_t>(u)];
    for (std::size_t t = 0; t < list.size(); ++t) {
      const TbOut& tb = list[t];
      x << "    <tb id=\"" << t << "\" send=\"" << tb.send << "\" recv=\"" << tb.recv
        << "\" chan=\"" << tb.chan << "\">\n";
      for (std::size_t s = 0; s < tb.steps.size(); ++s) {
        const StepOut& st = tb.steps[s];
        x << "      <step s=\"" << s << "\" type=\"" << st.type << "\" srcbuf=\""
          << buffer_name(st.src_buf) << "\" srcoff=\"" << st.src << "\" dstbuf=\""
          << buffer_name(st.dst_buf) << "\" dstoff=\"" << st.dst << "\" cnt=\"" << st.cnt
          << "\" depid=\"" << st.dep_tb << "\" deps=\"" << st.dep_step << "\" hasdep=\""
          << (st.hasdep ? 1 : 0) << "\"";
        if (st.op >= 0) {
          const Op& op = schedule.ops[static_cast<std::size_t>(st.op)];
          x << " mtsim_id=\"" << op.id << "\" mtsim_step=\"" << op.step << "\" mtsim_flow=\""
            << op.flow << "\"";
        }
        x << "/>\n";
      }
      x << "    </tb>\n";
    }
    x << "  </gpu>\n";
  }
  x << "</algo>\n";
  return x.str();
}

}  // namespace mt
