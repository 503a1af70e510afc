/*
 * ModelProfile: the gradient tensors of a deep-learning model in backprop order (the order
 * in which backprop produces them, last layer first), loaded from workloads/models/NAME.csv
 * or synthesized from "bytes:SIZE".
 */
#ifndef PARAMSYNC_MODEL_PROFILE_H
#define PARAMSYNC_MODEL_PROFILE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// \brief One gradient tensor.
struct GradientTensor
{
    std::string name;
    uint64_t params;
    uint64_t bytes;
    uint64_t offset; //!< first byte in the flattened gradient (backprop order)
};

/**
 * \brief A model's gradient: tensors in backprop order, flattened back to back.
 */
class ModelProfile
{
  public:
    /**
     * \brief "vgg16", "vgg19", "resnet50", "mnist-mlp" (from modelsDir), a path to a CSV,
     * or "bytes:SIZE" (one synthetic tensor, SIZE like 100MB). An empty modelsDir means
     * DefaultModelsDir().
     * \throws std::invalid_argument naming the model / file and line and what is allowed
     */
    static ModelProfile Load(const std::string& name, const std::string& modelsDir);
    /**
     * \brief Where the built-in model CSVs are: $PARAMSYNC_MODELS_DIR when set; else the
     * first existing of the install data directory and the build tree's copy, both found
     * relative to the directory of the loaded paramsync library (no path of the source tree
     * is compiled in, so an installed library finds its own data). Empty when none exists.
     */
    static std::string DefaultModelsDir();
    /// \brief Parses CSV text `tensor,params,bytes` (header line first; RFC 4180 quoting, as
    /// ResultsWriter::CsvField writes; a leading UTF-8 byte-order mark is skipped); file
    /// names the source.
    static ModelProfile Parse(const std::string& text,
                              const std::string& name,
                              const std::string& file);
    /// \brief Names of the built-in models.
    static std::vector<std::string> BuiltInNames();

    /// \brief Model name as given.
    const std::string&
    Name() const
    {
        return m_name;
    }
    /// \brief Tensors in backprop order.
    const std::vector<GradientTensor>&
    Tensors() const
    {
        return m_tensors;
    }
    /// \brief Sum of tensor bytes (W).
    uint64_t
    TotalBytes() const
    {
        return m_totalBytes;
    }
    /// \brief Sum of tensor parameters.
    uint64_t
    TotalParams() const
    {
        return m_totalParams;
    }

  private:
    std::string m_name;
    std::vector<GradientTensor> m_tensors;
    uint64_t m_totalBytes{0};
    uint64_t m_totalParams{0};
};

} // namespace ns3

#endif // PARAMSYNC_MODEL_PROFILE_H
