// The name GoogleTest gives each backend's instance of a parameterised
// kernel test: the backend's own name with '-' made '_' ("avx2_fma").
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "embeddings/kernels/backends.h"

inline std::string backend_param_name(
    const ::testing::TestParamInfo<const embeddings::kernels::KernelBackend*>& info) {
  std::string name = info.param->name;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}
