import {
  LPO_SCAN_MESSAGES as LM,
  lpoScanFilename,
  scanDescription,
  scanFileProblem,
  SIGNED_NOTE_MESSAGES,
  signedNoteFilename,
} from './scans';

describe('scanned papers', () => {
  it('names the file by the LPO number in letters, digits and dashes only', () => {
    expect(lpoScanFilename('KCG/LPO/2026/114', 'application/pdf')).toBe('LPO-KCG-LPO-2026-114.pdf');
    expect(lpoScanFilename('../..\\"x";\r\n114 ü', 'image/jpeg')).toBe('LPO-x-114-u.jpg');
    expect(lpoScanFilename('///', 'application/pdf')).toBe('LPO-scan.pdf');
    expect(lpoScanFilename('A'.repeat(100), 'application/pdf')).toBe(`LPO-${'A'.repeat(60)}.pdf`);
  });

  it('says what a scan is in a few words', () => {
    expect(scanDescription({ contentType: 'application/pdf', size: 212 * 1024 })).toBe(
      'PDF, 212 KB',
    );
    expect(scanDescription({ contentType: 'image/jpeg', size: 300 })).toBe('Photo, 1 KB');
    expect(scanDescription({ contentType: 'image/jpeg', size: 1.44 * 1024 * 1024 })).toBe(
      'Photo, 1.4 MB',
    );
  });

  it('refuses before sending an empty file, one over 5 MB, or one plainly not a PDF or picture', () => {
    expect(scanFileProblem({ size: 10, type: 'application/pdf' }, LM)).toBeNull();
    expect(scanFileProblem({ size: 10, type: 'image/heic' }, LM)).toBeNull();
    expect(scanFileProblem({ size: 10, type: '' }, LM)).toBeNull();
    expect(scanFileProblem({ size: 0, type: 'application/pdf' }, LM)).toBe(LM.chooseFile);
    expect(scanFileProblem({ size: 6 * 1024 * 1024, type: 'image/jpeg' }, LM)).toBe(LM.tooLarge);
    expect(scanFileProblem({ size: 10, type: 'text/html' }, LM)).toBe(LM.unsupported);
  });

  it("names a tranche's signed note by its order and tranche, whatever the purchase number holds", () => {
    expect(signedNoteFilename('SPD7K3MX9QA', 2, 'application/pdf')).toBe(
      'SPD7K3MX9QA-T2-signed.pdf',
    );
    expect(signedNoteFilename('SPD7K3MX9QA', 12, 'image/jpeg')).toBe('SPD7K3MX9QA-T12-signed.jpg');
    expect(signedNoteFilename('../"x";\r\n', 1, 'image/jpeg')).toBe('x-T1-signed.jpg');
    expect(SIGNED_NOTE_MESSAGES.unsupported).toBe(
      'A signed delivery note must be a PDF or a photo (JPEG, PNG or WebP)',
    );
  });
});
