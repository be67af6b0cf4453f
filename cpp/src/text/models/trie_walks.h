// The work of the models that find a piece's tokens by walking a trie of
// their vocabulary (Unigram's lattice, from every character; WordPiece's
// longest match, from where the last token ended). A walk reads the text
// only as far as some token goes on matching it, so real vocabularies, whose
// tokens are at most 16 characters, read a few bytes a byte; but a
// vocabulary of long tokens and a text that matches them would make a walk
// from every character read on for thousands of bytes. So the bytes the
// walks read are counted as they go, against an allowance linear in the
// text: kStepsPerByte for each byte of every piece the call gives the
// model, and ModelScratch::kSpareSteps more in all. A walk that would pass
// it stops the call, by name: encode() never takes more than that.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "embeddings/text/models.h"

namespace embeddings::models {

class TrieWalks {
 public:
  static constexpr std::uint64_t kStepsPerByte = 32;

  // A piece of `bytes` bytes: its own steps and what the call has spare.
  TrieWalks(std::size_t bytes, ModelScratch& scratch)
      : bytes_(bytes), own_(kStepsPerByte * bytes), left_(own_ + scratch.spare_steps), scratch_(scratch) {}
  // Gives the spare steps this piece did not use back to the call.
  ~TrieWalks() { scratch_.spare_steps = left_ < scratch_.spare_steps ? left_ : scratch_.spare_steps; }
  TrieWalks(const TrieWalks&) = delete;
  TrieWalks& operator=(const TrieWalks&) = delete;

  // Counts a walk that read `steps` bytes: false, with scratch.error naming
  // `model`, once the piece's walks have passed what it may take.
  bool take(std::size_t steps, const char* model, std::size_t longest_token) {
    if (steps <= left_) {
      left_ -= steps;
      return true;
    }
    scratch_.error = std::string("the ") + model + " model's search of a piece of " + std::to_string(bytes_) +
                     " bytes would read more than the " + std::to_string(own_ + scratch_.spare_steps) +
                     " bytes a text of its length may (" + std::to_string(kStepsPerByte) + " a byte, and " +
                     std::to_string(ModelScratch::kSpareSteps) +
                     " more in all): the model has tokens of up to " + std::to_string(longest_token) +
                     " bytes, and the text matches them on and on";
    left_ = 0;
    return false;
  }

 private:
  const std::size_t bytes_;
  const std::uint64_t own_;
  std::uint64_t left_;
  ModelScratch& scratch_;
};

}  // namespace embeddings::models
