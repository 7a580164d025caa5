import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { privacyMessages, type Grievance } from '@portal/contract';
import { useSessionStore } from '@/lib/session-store';
import { renderWithProviders } from '@/test/render';
import { jsonResponse, testUser } from '@/test/data';
import { GrievanceSection } from './grievance-section';

const OFFICER = {
  name: 'Meera Iyer',
  email: 'grievance@ledgerline.example.in',
  phone: '+91 80 4000 1234',
  responseDays: 15,
};

const answered: Grievance = {
  reference: 'GRV-7Q2K9M4T',
  topic: 'My personal data is wrong',
  message: 'My company name is spelt wrong.',
  submittedAt: '2026-11-01T04:30:00.000Z',
  respondBy: '2026-11-16T04:30:00.000Z',
  status: 'Answered',
  answeredAt: '2026-11-05T04:30:00.000Z',
  answer: 'We have corrected it.',
};

/** The grievance calls, answered from `grievances`; the bodies posted. */
function serve(grievances: Grievance[], refuse?: { status: number; message: string }) {
  const posted: unknown[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    if (key === 'GET /api/privacy/grievances') {
      return jsonResponse(200, {
        success: true,
        message: 'ok',
        data: { officer: OFFICER, grievances },
      });
    }
    if (key === 'POST /api/privacy/grievances') {
      const body = JSON.parse(String(init!.body)) as Grievance;
      posted.push(body);
      if (refuse) return jsonResponse(refuse.status, { success: false, message: refuse.message });
      const grievance: Grievance = {
        ...body,
        reference: 'GRV-NEW00001',
        submittedAt: '2026-11-20T04:30:00.000Z',
        respondBy: '2026-12-05T04:30:00.000Z',
        status: 'Open',
        answeredAt: null,
        answer: null,
      };
      grievances.unshift(grievance);
      return jsonResponse(201, {
        success: true,
        message: privacyMessages.grievanceRecorded,
        data: { grievance },
      });
    }
    throw new Error(`unexpected call ${key}`);
  });
  return posted;
}

beforeEach(() => {
  useSessionStore.setState({ token: 'token', isAuthenticated: true, user: testUser() });
});
afterEach(() => {
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
  useSessionStore.getState().clearSession();
});

const section = () => screen.getByRole('region', { name: 'Grievances' });

describe('GrievanceSection', () => {
  it('names the officer and lists the grievances with their due dates and answers', async () => {
    serve([answered]);
    renderWithProviders(<GrievanceSection />);
    expect(await screen.findByText(/Our grievance officer is Meera Iyer/)).toHaveTextContent(
      'Our grievance officer is Meera Iyer, grievance@ledgerline.example.in, +91 80 4000 1234. Each grievance is answered within 15 days.',
    );
    expect(screen.getByRole('link', { name: 'grievance@ledgerline.example.in' })).toHaveAttribute(
      'href',
      'mailto:grievance@ledgerline.example.in',
    );
    const item = within(screen.getByRole('list', { name: 'Your grievances' })).getByRole(
      'listitem',
    );
    expect(item).toHaveTextContent('GRV-7Q2K9M4TAnswered');
    expect(item).toHaveTextContent(
      'My personal data is wrong, raised on 01/11/2026. Answered on 05/11/2026.',
    );
    expect(item).toHaveTextContent('We have corrected it.');
  });

  it('checks the form, then acknowledges the grievance with its reference and due date', async () => {
    const grievances: Grievance[] = [];
    const posted = serve(grievances);
    const u = userEvent.setup();
    renderWithProviders(<GrievanceSection />);
    expect(await screen.findByText('You have not raised a grievance.')).toBeInTheDocument();
    const send = screen.getByRole('button', { name: 'Send to the grievance officer' });
    await u.click(send);
    expect(screen.getByText('Choose what it is about')).toBeInTheDocument();
    expect(
      screen.getByText('Tell us what happened, in at least 10 characters'),
    ).toBeInTheDocument();
    expect(posted).toEqual([]);

    await u.selectOptions(screen.getByLabelText('What is it about'), 'Something else');
    await u.type(screen.getByLabelText('What happened'), 'My consent was shared twice.');
    await u.click(send);
    expect(await screen.findByText(/Recorded as/)).toHaveTextContent(
      'Recorded as GRV-NEW00001. The answer is due by 05/12/2026; we have e-mailed you the reference.',
    );
    expect(posted).toEqual([{ topic: 'Something else', message: 'My consent was shared twice.' }]);
    expect(screen.getByLabelText('What happened')).toHaveValue('');
    expect(await within(section()).findByText(/Answer due by 05\/12\/2026/)).toBeInTheDocument();
  });

  it("shows the server's refusal and keeps what was typed", async () => {
    serve([], { status: 429, message: 'Too many attempts. Please wait 60 minutes and try again.' });
    const u = userEvent.setup();
    renderWithProviders(<GrievanceSection />);
    await u.selectOptions(await screen.findByLabelText('What is it about'), 'Something else');
    await u.type(screen.getByLabelText('What happened'), 'Another grievance, today.');
    await u.click(screen.getByRole('button', { name: 'Send to the grievance officer' }));
    expect(
      await screen.findByText('Too many attempts. Please wait 60 minutes and try again.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('What happened')).toHaveValue('Another grievance, today.');
  });
});
