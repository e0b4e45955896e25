import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '../../../testing/render';
import { RegisterRoute } from './register';

describe('register page', () => {
  it('shows the spec messages for missing and invalid fields', async () => {
    renderWithProviders(<RegisterRoute />);
    fireEvent.change(screen.getByLabelText('Phone number'), {
      target: { value: '07123456789012' },
    });
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'not-an-email' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Secret@1' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Secret@2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Full Name is required')).toBeInTheDocument();
    expect(screen.getByText('Invalid phone number format')).toBeInTheDocument();
    expect(screen.getByText('Invalid email format')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
  });

  it('asks for a phone number', async () => {
    renderWithProviders(<RegisterRoute />);
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Phone number is required')).toBeInTheDocument();
  });
});
