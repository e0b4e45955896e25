import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders, signInAs } from '../../../testing/render';
import { CategoryModal } from './category-modal';

describe('category modal', () => {
  beforeEach(() => signInAs('staff'));

  it('asks for the name and the description', async () => {
    const fetchMock = jest.spyOn(global, 'fetch');
    renderWithProviders(<CategoryModal opened onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add Category' }));
    expect(await screen.findByText('Category is required')).toBeInTheDocument();
    expect(screen.getByText('Description is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    fetchMock.mockRestore();
  });

  it('is prefilled when editing', () => {
    renderWithProviders(
      <CategoryModal
        opened
        onClose={() => undefined}
        category={{
          _id: 'c1',
          name: 'Herbs and spices',
          description: 'Culinary herbs',
          productCount: 3,
          createdAt: '',
          updatedAt: '',
        }}
      />,
    );
    expect(screen.getByLabelText('Category Name')).toHaveValue('Herbs and spices');
    expect(screen.getByRole('button', { name: 'Update Category' })).toBeInTheDocument();
  });
});
