#pragma once
// An MSCCL algorithm XML read into its program (gpus, their thread blocks and steps) and
// validated: known elements and attributes, integer ranges, buffer references (data: i and o, one
// buffer run in place; scratch: s), cross-block dependencies that exist and are signalled. The
// importer (msccl_import.cpp) turns the program into a Schedule; see msccl_xml.h.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/schedule.h"
#include "model/collective/xml_reader.h"

namespace mt {

/// A step type of the MSCCL runtime (s, r, rcs, rrs, rrc, rrcs, cpy, re, nop) and what it does.
struct MscclStepType {
  const char* name;
  bool send;    // the step sends a message on its thread block's send connection
  bool recv;    // the step receives one on its recv connection
  bool reduce;  // the received data is added (else it overwrites)
};

/// One <step> of a thread block, with the message it sends or receives once paired. Its buffer
/// references are normalised by type (what the MSCCL executor does with each field): `read` is
/// the slot a sending part sends (s, rrs: src; rcs, rrcs: dst) or a local step reads (cpy, re:
/// src); `write` is the slot a receiving part writes (r, rcs, rrc, rrcs: dst; rrs: src, see
/// SCHEDULE_FORMAT.md) or a local step writes (dst).
struct MscclStep {
  const XmlElement* xml = nullptr;
  const MscclStepType* type = nullptr;
  Buffer read_buf = Buffer::kData;
  int read = -1;  // first slot read (-1: none)
  Buffer write_buf = Buffer::kData;
  int write = -1;   // first slot written (-1: none)
  int cnt = 0;      // contiguous chunks moved
  int dep_tb = -1;  // index into MscclGpu::tbs, -1 = none
  int dep_step = -1;
  bool hasdep = false;
  long long mt_id = -1;
  int mt_step = -1;
  int mt_flow = -1;
  int recv_msg = -1;  // message this step receives (a local step: its own)
  int send_msg = -1;  // message this step sends (a local step: its own)
  /// A local copy (cpy) or reduction (re) between two slots of the gpu.
  bool local() const { return type != nullptr && !type->send && !type->recv && read >= 0; }
};

/// One <tb>: a thread block with at most one send and one receive connection.
struct MscclTb {
  const XmlElement* xml = nullptr;
  int id = 0, send = -1, recv = -1, chan = 0;
  std::vector<MscclStep> steps;
};

/// One <gpu>: a rank and its thread blocks.
struct MscclGpu {
  const XmlElement* xml = nullptr;
  int scratch_chunks = -1;  ///< s_chunks, -1 when absent
  std::vector<MscclTb> tbs;
};

/// A validated MSCCL all-reduce program. Errors (ScheduleError) read "FILE:LINE: <step s=\"3\">
/// of gpu 1 tb 0: what".
class MscclProgram {
 public:
  /// Reads and validates the program under `root` (an <algo> element) of file `file`.
  MscclProgram(const XmlElement& root, std::string file);

  /// `e` as errors name it: "FILE:LINE: <step s=\"3\"> of gpu 1 tb 0".
  std::string where(const XmlElement& e) const;
  /// Throws ScheduleError naming `e` (where(e)) and `what`.
  [[noreturn]] void fail(const XmlElement& e, const std::string& what) const;

  int ngpus = 0;               ///< ranks (gpu elements)
  int nchunks = 0;             ///< nchunksperloop: chunks of the buffer
  int scratch_chunks = 0;      ///< scratch slots any gpu declares or uses
  std::string name;            ///< algorithm name (default "msccl")
  std::string topology;        ///< mtsim_topology attribute, "" when absent
  std::vector<MscclGpu> gpus;  ///< by gpu id

 private:
  void read_algo();
  void read_gpu(int id, MscclGpu& gpu);
  /// Buffer and first slot of a reference (srcbuf/srcoff or dstbuf/dstoff); slot -1 = none.
  std::pair<Buffer, int> slot(const XmlElement& e, const char* buf_key, const char* off_key) const;
  MscclStep read_step(const XmlElement& e, int index, const MscclTb& tb, int gpu_scratch);
  void check_keys(const XmlElement& e, const std::set<std::string>& known) const;
  long long integer(const XmlElement& e, const std::string& key, long long lo, long long hi,
                    std::optional<long long> fallback = std::nullopt) const;
  std::string text(const XmlElement& e, const std::string& key, const std::string& fallback) const;

  const XmlElement& root_;
  std::string file_;
  std::map<const XmlElement*, std::string> context_;  // " of gpu 1 tb 0" per element
};

}  // namespace mt
