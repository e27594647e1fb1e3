"""Text-to-speech inference: byte tokenizer -> acoustic model -> mel -> vocoder.

Runs on a workstation GPU or on a laptop CPU (`--device cpu`).
Checkpoints were trained on a GPU box.
"""
import argparse
import wave

import torch
import torch.nn as nn
from transformers import AutoTokenizer

N_MELS = 40
HOP = 64


class AcousticModel(nn.Module):
    def __init__(self, vocab_size=384, dim=64, upsample=4):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.upsample = upsample
        self.to_mel = nn.Linear(dim, N_MELS)

    def forward(self, input_ids, attention_mask):
        h, _ = self.encoder(self.embed(input_ids))
        h = h * attention_mask.unsqueeze(-1)
        h = h.repeat_interleave(self.upsample, dim=1)
        return self.to_mel(h).transpose(1, 2)  # (B, n_mels, frames)


class Vocoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose1d(N_MELS, 32, kernel_size=16, stride=8, padding=4),
            nn.LeakyReLU(0.1),
            nn.ConvTranspose1d(32, 1, kernel_size=16, stride=8, padding=4),
            nn.Tanh(),
        )

    def forward(self, mel):
        return self.net(mel).squeeze(1)


def load_models(ckpt_dir, device):
    acoustic = AcousticModel()
    acoustic.load_state_dict(torch.load(f"{ckpt_dir}/acoustic.pt", map_location=device))
    vocoder = Vocoder()
    state = torch.load(f"{ckpt_dir}/vocoder.pt")  # expect: DEV008
    vocoder.load_state_dict(state["generator"])
    return acoustic.to(device).eval(), vocoder.to(device).eval()


def noise_profile(n_frames, level=0.05):
    # spectral floor estimated from silence; subtracted before vocoding
    return torch.full((1, N_MELS, n_frames), level)


@torch.no_grad()
def synthesize(texts, tokenizer, acoustic, vocoder, device, denoise=0.0):
    enc = tokenizer(texts, return_tensors="pt", padding=True)
    input_ids = enc["input_ids"]  # expect: DEV020
    enc = enc.to(device)
    mel = acoustic(input_ids, enc["attention_mask"])
    if denoise > 0:
        floor = noise_profile(mel.size(-1))
        floor.to(mel.device)  # expect: DEV005
        mel = torch.clamp(mel - denoise * floor, min=-11.5)
    audio = vocoder(mel)
    return [a.cpu().numpy() for a in audio]


def write_wav(path, samples, rate=16000):
    pcm = (samples.clip(-1, 1) * 32767).astype("<i2")
    with wave.open(path, "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(rate)
        f.writeframes(pcm.tobytes())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt-dir", default="checkpoints/tts")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--denoise", type=float, default=0.5)
    parser.add_argument("text", nargs="+")
    args = parser.parse_args()

    device = torch.device(args.device)
    tokenizer = AutoTokenizer.from_pretrained("google/byt5-small")
    acoustic, vocoder = load_models(args.ckpt_dir, device)
    for i, audio in enumerate(synthesize(args.text, tokenizer, acoustic, vocoder, device, args.denoise)):
        write_wav(f"tts_{i}.wav", audio)


if __name__ == "__main__":
    main()
