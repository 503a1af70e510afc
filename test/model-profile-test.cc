#include "ns3/model-profile.h"
#include "ns3/results-writer.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{
const std::string kModels = PARAMSYNC_SOURCE_DIR "/workloads/models";
}

// Reference totals (ARCHITECTURE.md, Workloads; the models' papers): bytes = 4 x params (fp32).
TEST(ModelProfile, BuiltInTotalsMatchReference)
{
    ModelProfile vgg16 = ModelProfile::Load("vgg16", kModels);
    EXPECT_EQ(vgg16.TotalParams(), 138357544u);
    EXPECT_EQ(vgg16.TotalBytes(), 553430176u);
    EXPECT_EQ(vgg16.Tensors().size(), 32u);
    ModelProfile vgg19 = ModelProfile::Load("vgg19", kModels);
    EXPECT_EQ(vgg19.TotalParams(), 143667240u);
    EXPECT_EQ(vgg19.TotalBytes(), 574668960u);
    EXPECT_EQ(vgg19.Tensors().size(), 38u);
    ModelProfile resnet = ModelProfile::Load("resnet50", kModels);
    EXPECT_EQ(resnet.TotalParams(), 25557032u);
    EXPECT_EQ(resnet.TotalBytes(), 102228128u);
    // 784*1000+1000 + 1000*200+200 + 200*10+10 = 987,210
    ModelProfile mlp = ModelProfile::Load("mnist-mlp", kModels);
    EXPECT_EQ(mlp.TotalParams(), 987210u);
    // Backprop order: the last layer's tensors come first, offsets are back to back.
    EXPECT_EQ(vgg19.Tensors()[0].name, "classifier.6.bias");
    EXPECT_EQ(vgg19.Tensors()[1].offset, 4000u);
}

TEST(ModelProfile, SyntheticBytes)
{
    ModelProfile m = ModelProfile::Load("bytes:100MB", kModels);
    EXPECT_EQ(m.TotalBytes(), 100000000u);
    EXPECT_EQ(m.Tensors().size(), 1u);
    EXPECT_THROW(ModelProfile::Load("bytes:0", kModels), std::invalid_argument);
    EXPECT_THROW(ModelProfile::Load("alexnet", kModels), std::invalid_argument);
}

TEST(ModelProfile, MalformedProfilesNameFileAndLine)
{
    auto message = [](const std::string& text) {
        try
        {
            ModelProfile::Parse(text, "m", "m.csv");
        }
        catch (const std::invalid_argument& e)
        {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message("").find("m.csv"), std::string::npos);
    EXPECT_NE(message("name,params\n").find("m.csv:1"), std::string::npos);
    EXPECT_NE(message("tensor,params,bytes\na,10\n").find("m.csv:2"), std::string::npos);
    EXPECT_NE(message("tensor,params,bytes\na,1x,4\n").find("m.csv:2"), std::string::npos);
    EXPECT_NE(message("tensor,params,bytes\na,0,0\n").find("m.csv:2"), std::string::npos);
    EXPECT_NE(message("tensor,params,bytes\na,-1,4\n").find("m.csv:2"), std::string::npos);
    EXPECT_NE(message("tensor,params,bytes\na,10,41\n").find("m.csv:2"), std::string::npos);
    EXPECT_NE(message("tensor,params,bytes\na,1,4\na,1,4\n").find("m.csv:3"), std::string::npos);
    EXPECT_NE(message(std::string("tensor\0,x", 9)).find("binary"), std::string::npos);
    EXPECT_EQ(message("tensor,params,bytes\r\na,10,40\r\n"), "no error");
}

namespace ns3
{
namespace
{

TEST(ModelProfileCsv, AByteOrderMarkIsSkipped)
{
    // A spreadsheet's UTF-8 CSV starts with EF BB BF: the header after it is still the header.
    ModelProfile p = ModelProfile::Parse(
        "\xEF\xBB\xBFtensor,params,bytes\nw,10,40\n", "bom", "bom.csv");
    ASSERT_EQ(p.Tensors().size(), 1u);
    EXPECT_EQ(p.TotalBytes(), 40u);
}

TEST(ModelProfileCsv, QuotedFieldsAsTheCsvWriterWritesThemReadBack)
{
    // Names with a comma and a quote, written by the results writer's RFC 4180 quoting, read
    // back whole: "conv1,weight" and say "hi" (10 fp32 params = 40 B, 1 = 4 B).
    const std::string a = "conv1,weight";
    const std::string b = "say \"hi\"";
    const std::string text = "tensor,params,bytes\n" + ResultsWriter::CsvField(a) + ",10,40\n" +
                             ResultsWriter::CsvField(b) + ",1,4\n";
    ModelProfile p = ModelProfile::Parse(text, "quoted", "quoted.csv");
    ASSERT_EQ(p.Tensors().size(), 2u);
    EXPECT_EQ(p.Tensors()[0].name, a);
    EXPECT_EQ(p.Tensors()[1].name, b);
    EXPECT_EQ(p.TotalBytes(), 44u);
}

TEST(ModelProfileCsv, AnUnclosedQuoteNamesTheLine)
{
    try
    {
        ModelProfile::Parse("tensor,params,bytes\n\"open,10,40\n", "bad", "bad.csv");
        FAIL() << "accepted an unclosed quote";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("bad.csv:2: a quoted field is not closed"),
                  std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace ns3
